import { fauxToolCall } from "@pi/ai";
import { describe, expect, test } from "vitest";
import { Agent, agentLoop, defaultConvertToLlm, INTERRUPTED_TEXT, type StreamFn } from "../src/index.js";
import { collect, record, textOf, user } from "./helpers/collect.js";
import { assertRunInvariants } from "./helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "./helpers/scripted-stream.js";
import { customTool } from "./helpers/tools.js";

describe("steering mode `interrupt`", () => {
	test("cuts the streaming reply short, keeps it as `aborted`, delivers the steering at once, and calls the model again", async () => {
		let agent!: Agent;
		const streamFn = scriptedStream([
			{ stall: "I will write a very long ess", onStalled: () => agent.steer(user("Stop, just say hi.")) },
			reply("Hi."),
		]);
		agent = new Agent({ initialState: { model: testModel }, streamFn, steeringMode: "interrupt" });
		const events = record(agent);
		await agent.prompt("Write an essay.");
		assertRunInvariants(events);
		const messages = agent.state.messages;
		expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
		expect(messages[1]).toMatchObject({ stopReason: "aborted", errorMessage: INTERRUPTED_TEXT });
		expect(textOf(messages[1])).toBe("I will write a very long ess");
		expect(textOf(messages[2])).toBe("Stop, just say hi.");
		expect(textOf(messages[3])).toBe("Hi.");
		// The second call saw the partial reply and the steering message.
		expect(streamFn.contexts[1]?.messages.map(textOf)).toEqual(["Write an essay.", "I will write a very long ess", "Stop, just say hi."]);
		// An interrupt is not a failure.
		expect(agent.state.errorMessage).toBeUndefined();
		// The interrupted turn ended, and a new one began for the steering message.
		expect(events.filter((event) => event.type === "turn_start")).toHaveLength(2);
	});

	test("does not abort running tools: the steering waits for the batch", async () => {
		let agent!: Agent;
		let toolSignal: AbortSignal | undefined;
		const slow = customTool("slow", async (_params, signal) => {
			toolSignal = signal;
			agent.steer(user("btw"));
			await new Promise((resolve) => setTimeout(resolve, 5));
		});
		const streamFn = scriptedStream([reply([fauxToolCall("slow", { text: "done" })]), reply("ok")]);
		agent = new Agent({ initialState: { model: testModel, tools: [slow] }, streamFn, steeringMode: "interrupt" });
		await agent.prompt("go");
		expect(toolSignal?.aborted).toBe(false);
		expect(agent.state.messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "user", "assistant"]);
		expect(agent.state.messages[2]).toMatchObject({ isError: false });
	});

	test("a steer while the call is being prepared cancels that call before anything is sent: no empty reply", async () => {
		let agent!: Agent;
		let steered = false;
		const streamFn = scriptedStream([reply("answer to both")]);
		agent = new Agent({
			initialState: { model: testModel },
			streamFn,
			steeringMode: "interrupt",
			transformContext: async (messages) => {
				if (!steered) {
					steered = true;
					agent.steer(user("one more thing"));
				}
				return messages;
			},
		});
		const events = record(agent);
		await agent.prompt("first");
		assertRunInvariants(events);
		expect(streamFn.contexts).toHaveLength(1);
		expect(agent.state.messages.map(textOf)).toEqual(["first", "one more thing", "answer to both"]);
	});

	test("a steer while an async stream function is still starting: nothing streamed, so no empty reply", async () => {
		let agent!: Agent;
		const scripted = scriptedStream([reply("answer to both")]);
		let calls = 0;
		const streamFn: StreamFn = async (model, context, options) => {
			if (calls++ === 0) {
				agent.steer(user("one more thing"));
				await new Promise(() => {}); // a connection that never opens
			}
			return scripted(model, context, options);
		};
		agent = new Agent({ initialState: { model: testModel }, streamFn, steeringMode: "interrupt" });
		const events = record(agent);
		await agent.prompt("first");
		assertRunInvariants(events);
		expect(agent.state.messages.map(textOf)).toEqual(["first", "one more thing", "answer to both"]);
	});

	test("delivers every queued steering message together", async () => {
		let agent!: Agent;
		const streamFn = scriptedStream([
			{
				stall: "partial",
				onStalled: () => {
					agent.steer(user("a"));
					agent.steer(user("b"));
				},
			},
			reply("ok"),
		]);
		agent = new Agent({ initialState: { model: testModel }, streamFn, steeringMode: "interrupt" });
		await agent.prompt("go");
		expect(streamFn.contexts).toHaveLength(2);
		expect(agent.state.messages.map(textOf)).toEqual(["go", "partial", "a", "b", "ok"]);
	});

	test("loop level: onReplyStart's interrupt cuts the reply; the loop polls steering and goes on", async () => {
		let interrupt: (() => void) | undefined;
		let interrupted = false;
		const streamFn = scriptedStream([
			{
				stall: "old direc",
				onStalled: () => {
					interrupted = true;
					interrupt?.();
				},
			},
			reply("new answer"),
		]);
		const { events, result } = await collect(
			agentLoop(
				[user("go")],
				{ systemPrompt: "", messages: [] },
				{
					model: testModel,
					convertToLlm: defaultConvertToLlm,
					onReplyStart: (cut) => {
						interrupt = cut;
						return () => {
							interrupt = undefined;
						};
					},
					getSteeringMessages: () => (interrupted && streamFn.contexts.length === 1 ? [user("new direction")] : []),
				},
				undefined,
				streamFn,
			),
		);
		assertRunInvariants(events);
		expect(result.map(textOf)).toEqual(["go", "old direc", "new direction", "new answer"]);
		expect(interrupt).toBeUndefined(); // the cleanup ran after each reply
	});

	test("an interrupted reply's tool calls are not run", async () => {
		let agent!: Agent;
		const tool = customTool("t");
		const streamFn = scriptedStream([
			// A reply that streamed a complete tool call, then stalls.
			(_context, options) =>
				new Promise((resolve) => {
					options?.signal?.addEventListener("abort", () => resolve(reply([fauxToolCall("t", { text: "x" })], { stopReason: "aborted" })));
					setTimeout(() => agent.steer(user("never mind")), 1);
				}),
			reply("ok"),
		]);
		agent = new Agent({ initialState: { model: testModel, tools: [tool] }, streamFn, steeringMode: "interrupt" });
		const events = record(agent);
		await agent.prompt("go");
		assertRunInvariants(events);
		expect(events.some((event) => event.type === "tool_execution_start")).toBe(false);
	});
});
