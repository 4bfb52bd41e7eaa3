/**
 * A custom `streamFn` runs without a model, as the reference's does: it is called with the
 * placeholder model (`no-model-set`) and decides for itself (a mock, a proxy, a router that picks
 * the model). Only the default stream function ends such a run with "no model set"
 * (agent-errors.test.ts). The three cases are the reference agent tests that failed here.
 */
import { describe, expect, test } from "vitest";
import { Agent } from "../src/index.js";
import { gate, user } from "./helpers/collect.js";
import { reply, scriptedStream } from "./helpers/scripted-stream.js";

/** A stream function that streams a little and then waits for the abort; `started` resolves once it runs. */
function stalling() {
	const started = gate();
	const streamFn = scriptedStream([{ stall: "thinking…", onStalled: () => started.resolve() }]);
	return { streamFn, started: started.promise };
}

describe("a custom streamFn without a model", () => {
	test("is called with the placeholder model, and sessionId reaches its options", async () => {
		const streamFn = scriptedStream([reply("routed by the stream function")]);
		const models: string[] = [];
		const agent = new Agent({
			sessionId: "session-abc",
			streamFn: (model, context, options) => {
				models.push(model.id);
				return streamFn(model, context, options);
			},
		});
		await agent.prompt("hi");
		expect(models).toEqual(["no-model-set"]);
		expect(streamFn.options[0]?.sessionId).toBe("session-abc");
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
		expect(agent.state.errorMessage).toBeUndefined();
	});

	test("prompt() while it streams rejects with the reference's message", async () => {
		const { streamFn, started } = stalling();
		const agent = new Agent({ streamFn });
		const first = agent.prompt("first");
		await Promise.race([started, first]);
		expect(agent.state.isStreaming).toBe(true);
		await expect(agent.prompt("second")).rejects.toThrow(
			"Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.",
		);
		agent.abort();
		await first;
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
	});

	test("continue() while it streams rejects with the reference's message", async () => {
		const { streamFn, started } = stalling();
		const agent = new Agent({ streamFn, initialState: { messages: [user("first")] } });
		const first = agent.continue();
		await Promise.race([started, first]);
		expect(agent.state.isStreaming).toBe(true);
		await expect(agent.continue()).rejects.toThrow("Agent is already processing. Wait for completion before continuing.");
		agent.abort();
		await first;
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
	});
});
