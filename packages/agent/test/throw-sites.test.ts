import { fauxToolCall } from "@pi/ai";
import { describe, expect, test } from "vitest";
import {
	type AgentEvent,
	type AgentLoopConfig,
	type AgentMessage,
	type AgentTool,
	defaultConvertToLlm,
	runAgentLoop,
	type StreamFn,
} from "../src/index.js";
import { user } from "./helpers/collect.js";
import { assertRunInvariants } from "./helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "./helpers/scripted-stream.js";
import { customTool } from "./helpers/tools.js";

type Kind = "sync" | "async";

/** A function that fails the way `kind` says, with the message `boom`. */
function failing(kind: Kind): (...args: unknown[]) => never {
	return kind === "sync"
		? () => {
				throw new Error("boom");
			}
		: (() => Promise.reject(new Error("boom"))) as unknown as (...args: unknown[]) => never;
}

/** A tool that reports progress once, so that every tool event happens. */
const progressTool: AgentTool<any> = customTool("echo", ({ text }, _signal, onUpdate) => {
	onUpdate?.({ content: [{ type: "text", text: "…" }], details: {} });
	return { content: [{ type: "text", text }], details: {} };
});

interface Outcome {
	events: AgentEvent[];
	messages: AgentMessage[];
	calls: number;
}

/** Prompt → tool call → tool result → answer, with `config` overrides and an optional sink failure. */
async function run(
	config: Partial<AgentLoopConfig>,
	options: { sinkFailsOn?: (event: AgentEvent) => boolean; kind?: Kind; streamFn?: StreamFn } = {},
): Promise<Outcome> {
	const scripted = scriptedStream([reply([fauxToolCall("echo", { text: "hi" }, { id: "t1" })]), reply("done")]);
	const streamFn = options.streamFn ?? scripted;
	const events: AgentEvent[] = [];
	let failed = false;
	const messages = await runAgentLoop(
		[user("go")],
		{ systemPrompt: "", messages: [], tools: [progressTool] },
		{ model: testModel, convertToLlm: defaultConvertToLlm, ...config },
		(event) => {
			events.push(event);
			if (!failed && options.sinkFailsOn?.(event)) {
				failed = true;
				if (options.kind === "async") return Promise.reject(new Error("boom"));
				throw new Error("boom");
			}
		},
		undefined,
		streamFn,
	);
	return { events, messages, calls: scripted.contexts.length };
}

/** The run ended in good order and the failure shows as the last assistant message. */
function expectReported(outcome: Outcome, site: string): void {
	const ended = assertRunInvariants(outcome.events);
	expect(outcome.messages).toEqual(ended);
	const lastAssistant = [...outcome.messages].reverse().find((message) => message.role === "assistant");
	expect(lastAssistant).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: `${site} failed: boom` });
	expect(outcome.events.at(-1)?.type).toBe("agent_end");
	// The prompt is in the transcript whatever failed, even before it was delivered.
	expect(outcome.messages[0]).toMatchObject({ role: "user", content: "go" });
}

const kinds: Kind[] = ["sync", "async"];

describe.each(kinds)("a %s throw", (kind) => {
	test("from streamFn ends the run with an error reply", async () => {
		const outcome = await run({}, { streamFn: failing(kind) as unknown as StreamFn });
		expectReported(outcome, "streamFn");
	});

	test("from convertToLlm", async () => {
		expectReported(await run({ convertToLlm: failing(kind) }), "convertToLlm");
	});

	test("from transformContext", async () => {
		expectReported(await run({ transformContext: failing(kind) }), "transformContext");
	});

	test("from getApiKey", async () => {
		expectReported(await run({ getApiKey: failing(kind) }), "getApiKey");
	});

	test("from beforeToolCall: the tool call still gets a result message, then the error", async () => {
		const outcome = await run({ beforeToolCall: failing(kind) });
		expectReported(outcome, "beforeToolCall");
		const result = outcome.messages.find((message) => message.role === "toolResult");
		expect(result).toMatchObject({ toolCallId: "t1", isError: true });
	});

	test("from afterToolCall", async () => {
		expectReported(await run({ afterToolCall: failing(kind) }), "afterToolCall");
	});

	test("from shouldStopAfterTurn", async () => {
		expectReported(await run({ shouldStopAfterTurn: failing(kind) }), "shouldStopAfterTurn");
	});

	test("from getSteeringMessages (polled at the start of the run)", async () => {
		const outcome = await run({ getSteeringMessages: failing(kind) });
		expectReported(outcome, "getSteeringMessages");
		expect(outcome.calls).toBe(0);
	});

	test("from getSteeringMessages (polled after a turn)", async () => {
		let polls = 0;
		const outcome = await run({
			getSteeringMessages: async () => {
				polls++;
				if (polls === 2) return failing(kind)();
				return [];
			},
		});
		expectReported(outcome, "getSteeringMessages");
		expect(outcome.calls).toBe(1);
	});

	test("from getFollowUpMessages", async () => {
		const outcome = await run({ getFollowUpMessages: failing(kind) });
		expectReported(outcome, "getFollowUpMessages");
		expect(outcome.calls).toBe(2);
	});

	test("from onReplyStart", async () => {
		expectReported(await run({ onReplyStart: failing(kind) }), "onReplyStart");
	});

	const listenerSites: [string, (event: AgentEvent) => boolean][] = [
		["agent_start", (event) => event.type === "agent_start"],
		["turn_start", (event) => event.type === "turn_start"],
		["message_start of the prompt", (event) => event.type === "message_start" && event.message.role === "user"],
		["message_start of the reply", (event) => event.type === "message_start" && event.message.role === "assistant"],
		["message_update", (event) => event.type === "message_update"],
		["message_end of the reply", (event) => event.type === "message_end" && event.message.role === "assistant"],
		["tool_execution_start", (event) => event.type === "tool_execution_start"],
		["tool_execution_update", (event) => event.type === "tool_execution_update"],
		["tool_execution_end", (event) => event.type === "tool_execution_end"],
		["message_end of a tool result", (event) => event.type === "message_end" && event.message.role === "toolResult"],
		["turn_end", (event) => event.type === "turn_end"],
	];
	test.each(listenerSites)("from an event listener on %s", async (_name, sinkFailsOn) => {
		const outcome = await run({}, { sinkFailsOn, kind });
		expectReported(outcome, "event listener");
		// No further model call after the failure.
		expect(outcome.calls).toBeLessThanOrEqual(1);
	});

	test("from an event listener on agent_end changes nothing: the run is over", async () => {
		const outcome = await run({}, { sinkFailsOn: (event) => event.type === "agent_end", kind });
		assertRunInvariants(outcome.events);
		expect(outcome.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
	});
});

describe("streamFn breaking its contract in other ways", () => {
	test("returning something that is not an event stream", async () => {
		const outcome = await run({}, { streamFn: (() => ({ nope: true })) as unknown as StreamFn });
		const ended = assertRunInvariants(outcome.events);
		expect(ended.at(-1)).toMatchObject({ stopReason: "error", errorMessage: "streamFn failed: it did not return an event stream" });
	});

	test("convertToLlm returning a non-array", async () => {
		const outcome = await run({ convertToLlm: (() => "nope") as never });
		expectReportedText(outcome, "convertToLlm failed: it did not return an array");
	});
});

describe("a failure while a reply streams keeps what streamed", () => {
	test("the partial reply becomes the error message (no extra message)", async () => {
		const outcome = await run({}, { sinkFailsOn: (event) => event.type === "message_update" && event.assistantMessageEvent.type === "toolcall_end" });
		const ended = assertRunInvariants(outcome.events);
		const assistants = ended.filter((message) => message.role === "assistant");
		expect(assistants).toHaveLength(1);
		expect(assistants[0]).toMatchObject({ stopReason: "error", errorMessage: "event listener failed: boom" });
		expect(assistants[0]?.role === "assistant" && assistants[0].content[0]).toMatchObject({ type: "toolCall", name: "echo" });
	});
});

describe("secrets", () => {
	test("the API key never appears in the error message of a failed run", async () => {
		const key = "sk-test-1234567890abcdef";
		const outcome = await run({
			apiKey: key,
			convertToLlm: () => {
				throw new Error(`bad key ${key}`);
			},
		});
		const text = JSON.stringify(outcome.events);
		expect(text).not.toContain(key);
		expect(outcome.messages.at(-1)).toMatchObject({ errorMessage: "convertToLlm failed: bad key [REDACTED]" });
	});
});

function expectReportedText(outcome: Outcome, text: string): void {
	const ended = assertRunInvariants(outcome.events);
	expect(ended.at(-1)).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: text });
}
