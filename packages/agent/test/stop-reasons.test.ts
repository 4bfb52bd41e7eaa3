import { type AssistantMessage, fauxToolCall } from "@pi/ai";
import { describe, expect, test } from "vitest";
import { agentLoop, defaultConvertToLlm } from "../src/index.js";
import { collect, textOf, user } from "./helpers/collect.js";
import { assertRunInvariants } from "./helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "./helpers/scripted-stream.js";
import { addTool } from "./helpers/tools.js";

/** One reply with `stopReason`, a follow-up waiting, and a second reply in case the loop goes on. */
async function run(first: AssistantMessage) {
	const streamFn = scriptedStream([first, reply("second call")]);
	let followUpPolls = 0;
	const { events, result } = await collect(
		agentLoop(
			[user("go")],
			{ systemPrompt: "", messages: [], tools: [addTool()] },
			{
				model: testModel,
				convertToLlm: defaultConvertToLlm,
				getFollowUpMessages: () => (followUpPolls++ === 0 ? [user("follow-up")] : []),
			},
			undefined,
			streamFn,
		),
	);
	assertRunInvariants(events);
	return { result, calls: streamFn.contexts.length, followUpPolls };
}

describe("how a reply's stop reason steers the loop", () => {
	test("stop: the agent would stop, so follow-ups are polled and start another turn", async () => {
		const { calls, result } = await run(reply("done"));
		expect(calls).toBe(2);
		expect(result.map(textOf)).toEqual(["go", "done", "follow-up", "second call"]);
	});

	test("length: the same as stop; the truncated reply stays in the transcript", async () => {
		const { calls, result } = await run(reply("cut off mid-sen", { stopReason: "length" }));
		expect(calls).toBe(2);
		expect(result[1]).toMatchObject({ stopReason: "length" });
	});

	test.each(["error", "aborted", "deferred"] as const)("%s: the run ends; queues are not polled", async (stopReason) => {
		const { calls, followUpPolls, result } = await run(reply("", { stopReason, errorMessage: `${stopReason} happened` }));
		expect(calls).toBe(1);
		expect(followUpPolls).toBe(0);
		expect(result.at(-1)).toMatchObject({ role: "assistant", stopReason });
	});

	test("toolUse: the tools run and the model is called again", async () => {
		const { result } = await run(reply([fauxToolCall("add", { a: 1, b: 1 })]));
		// The follow-up waits until the model answered the tool result.
		expect(result.slice(0, 5).map(textOf)).toEqual(["go", "", "2", "second call", "follow-up"]);
	});

	test("stop with tool calls (some APIs say so): the tools still run", async () => {
		const { result } = await run(reply([fauxToolCall("add", { a: 2, b: 2 })], { stopReason: "stop" }));
		expect(result[2]).toMatchObject({ role: "toolResult", details: { sum: 4 } });
	});

	test("length with tool calls: a truncated call is not run", async () => {
		const { result } = await run(reply([fauxToolCall("add", { a: 2 })], { stopReason: "length" }));
		expect(result.some((message) => message.role === "toolResult")).toBe(false);
	});
});
