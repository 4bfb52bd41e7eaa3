/**
 * Aborting the agent in every phase of a run, over a real provider stream: while the context is
 * transformed and converted, while the key is fetched, while waiting for headers, mid-stream,
 * during a retry wait, before, during and after a tool, and while a listener works. Right after
 * `abort()` the app steers and follows up. Each run ends promptly with agent_end, makes no model
 * call after the abort, keeps what streamed, and loses none of the messages sent during the abort.
 */
import type { ScriptedResponse } from "@pi/ai/testing";
import { jsonResponse, type ReplayServer, sseResponse, startReplayServer } from "@pi/ai/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type AgentEvent, type AgentOptions, type AgentTool, defaultConvertToLlm, type SteeringMode } from "../../src/index.js";
import { echoTool, FAKE_KEY, expectNoQueuedMessageLost, expectWellFormedRuns, serverAgent, textReply, toolReply } from "./harness.js";

/** Settles never; or, given a signal, rejects once it aborts (a well-behaved callback). */
function waitFor(signal?: AbortSignal): Promise<never> {
	return new Promise((_, reject) => {
		if (signal?.aborted) reject(signal.reason);
		signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
	});
}

/** `hang` the first time (the phase under test), `then` afterwards (the runs that deliver the queues). */
function firstTime<A extends unknown[], R>(hang: () => Promise<never>, then: (...args: A) => R): (...args: A) => R | Promise<never> {
	let first = true;
	return (...args: A) => {
		if (!first) return then(...args);
		first = false;
		return hang();
	};
}

const TEXT_BODY =
	'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_s","usage":{"input_tokens":3,"output_tokens":1}}}\n\n' +
	'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
	'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Partial answer"}}\n\n';

interface Phase {
	name: string;
	/** Calls `enter` when the run reaches the phase. */
	setup(enter: () => void): { options?: AgentOptions; tools?: AgentTool<any>[]; responses: ScriptedResponse[]; listen?: (event: AgentEvent, signal: AbortSignal) => Promise<void> | void };
	/** What the run's last message must show; `aborted` when the abort cut it short. */
	expectLast: { role: "assistant" | "toolResult"; aborted: boolean; text?: string };
}

const TOOL_CALL = () => toolReply("toolu_abort_1", "echo", ['{"text":', '"hi"}']);

const PHASES: Phase[] = [
	{
		name: "transformContext (ignores the signal)",
		setup: (enter) => ({ options: { transformContext: firstTime(() => (enter(), waitFor()), async (messages) => messages) }, responses: [textReply("never")] }),
		expectLast: { role: "assistant", aborted: true },
	},
	{
		name: "convertToLlm (ignores the signal)",
		setup: (enter) => ({ options: { convertToLlm: firstTime(() => (enter(), waitFor()), defaultConvertToLlm) }, responses: [textReply("never")] }),
		expectLast: { role: "assistant", aborted: true },
	},
	{
		name: "getApiKey (ignores the signal)",
		setup: (enter) => ({ options: { getApiKey: firstTime(() => (enter(), waitFor()), () => FAKE_KEY) }, responses: [textReply("never")] }),
		expectLast: { role: "assistant", aborted: true },
	},
	{
		name: "waiting for the response headers",
		setup: (enter) => ({
			responses: [{ stallBeforeHeaders: true }],
			listen: (event) => {
				// Abort once the server holds the request (not after a fixed delay: on a loaded
				// machine the request may still be on its way, and would then count as a call
				// made after the abort).
				if (event.type !== "turn_start") return;
				const poll = () => (server.requests.length > 0 ? enter() : setTimeout(poll, 2));
				poll();
			},
		}),
		expectLast: { role: "assistant", aborted: true },
	},
	{
		name: "mid-stream (the server stalls)",
		setup: (enter) => ({
			responses: [sseResponse(TEXT_BODY, { stallAfterBytes: TEXT_BODY.length })],
			listen: (event) => {
				if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") enter();
			},
		}),
		expectLast: { role: "assistant", aborted: true, text: "Partial answer" },
	},
	{
		name: "a retry wait",
		setup: (enter) => ({
			options: { maxRetryDelayMs: 60_000 },
			responses: [jsonResponse(429, { type: "error", error: { type: "rate_limit_error", message: "slow down" } }, { "retry-after": "30" })],
			listen: (event) => {
				// Once the server answered the 429, the client waits 30 s before retrying: abort in there.
				if (event.type !== "turn_start") return;
				const poll = () => (server.requests.length > 0 ? setTimeout(enter, 20) : setTimeout(poll, 2));
				poll();
			},
		}),
		expectLast: { role: "assistant", aborted: true },
	},
	{
		name: "beforeToolCall (ignores the signal)",
		setup: (enter) => ({ options: { beforeToolCall: firstTime(() => (enter(), waitFor()), async () => undefined) }, responses: [TOOL_CALL(), textReply("never")] }),
		expectLast: { role: "toolResult", aborted: true },
	},
	{
		name: "a tool that ignores the signal",
		setup: (enter) => ({ tools: [echoTool(() => (enter(), waitFor()))], responses: [TOOL_CALL(), textReply("never")] }),
		expectLast: { role: "toolResult", aborted: true },
	},
	{
		name: "a tool that honours the signal",
		setup: (enter) => ({ tools: [echoTool((signal) => (enter(), waitFor(signal)))], responses: [TOOL_CALL(), textReply("never")] }),
		expectLast: { role: "toolResult", aborted: true },
	},
	{
		name: "afterToolCall (ignores the signal)",
		setup: (enter) => ({ options: { afterToolCall: firstTime(() => (enter(), waitFor()), async () => undefined) }, responses: [TOOL_CALL(), textReply("never")] }),
		expectLast: { role: "toolResult", aborted: true },
	},
	{
		name: "a listener that waits for the signal, at a tool's end",
		setup: (enter) => ({
			responses: [TOOL_CALL(), textReply("never")],
			listen: (event, signal) => {
				if (event.type !== "tool_execution_end") return;
				enter();
				return waitFor(signal).catch(() => {});
			},
		}),
		expectLast: { role: "toolResult", aborted: false },
	},
	{
		name: "between turns (a turn_end listener)",
		setup: (enter) => ({
			responses: [TOOL_CALL(), textReply("never")],
			listen: (event) => {
				if (event.type === "turn_end") enter();
			},
		}),
		expectLast: { role: "toolResult", aborted: false },
	},
];

let server: ReplayServer;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(async () => {
	server = await startReplayServer();
	process.on("unhandledRejection", onUnhandled);
});
afterEach(() => server.reset());
afterAll(async () => {
	await server.close();
	await new Promise((resolve) => setTimeout(resolve, 30));
	process.off("unhandledRejection", onUnhandled);
	expect(unhandled).toEqual([]);
});

describe.each(["one-at-a-time", "interrupt"] as SteeringMode[])("steering mode %s", (steeringMode) => {
	it.each(PHASES)("abort during $name, then steer and follow up at once", async (phase) => {
		// Order, not wall-clock time: each hung phase never settles by itself (and the retry wait is
		// 30 s, longer than the test timeout), so the run can only end because abort() ended it.
		let step = 0;
		let abortedAt = 0;
		let requestsAtAbort = -1;
		let enter = () => {};
		const { options, tools, responses, listen } = phase.setup(() => enter());
		const { agent, events } = serverAgent(server, { steeringMode, ...options }, tools);
		enter = () => {
			if (abortedAt) return;
			abortedAt = ++step;
			requestsAtAbort = server.requests.length;
			agent.abort();
			// Sent while the run is winding down: neither may be lost.
			agent.steer({ role: "user", content: "steered during the abort", timestamp: Date.now() });
			agent.followUp({ role: "user", content: "followed up during the abort", timestamp: Date.now() });
		};
		let endedAt = 0;
		agent.subscribe((event, signal) => {
			if (event.type === "agent_end" && !endedAt) endedAt = ++step;
			return listen?.(event, signal);
		});
		server.enqueue(...responses);

		await agent.prompt("go");
		expect(abortedAt, "the phase was reached").toBe(1);
		expect(endedAt, "the run ended with agent_end, after abort()").toBe(2);
		expectWellFormedRuns(events);
		// No model call after the abort.
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(server.requests.length).toBe(requestsAtAbort);

		const last = agent.state.messages.at(-1) as { role: string; stopReason?: string; isError?: boolean; content: { type: string; text?: string }[] };
		expect(last.role).toBe(phase.expectLast.role);
		if (last.role === "assistant") expect(last.stopReason).toBe(phase.expectLast.aborted ? "aborted" : "stop");
		else expect(last.isError).toBe(phase.expectLast.aborted);
		if (phase.expectLast.text) expect(last.content).toEqual([{ type: "text", text: phase.expectLast.text }]);

		await expectNoQueuedMessageLost(agent, server, ["steered during the abort", "followed up during the abort"]);
		expectWellFormedRuns(events);
	});
});
