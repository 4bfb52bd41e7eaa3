import { fauxToolCall } from "@pi/ai";
import { describe, expect, test } from "vitest";
import { agentLoop, defaultConvertToLlm, runAgentLoop, type AgentEvent } from "../src/index.js";
import { collect, textOf, user } from "./helpers/collect.js";
import { assertRunInvariants, types } from "./helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "./helpers/scripted-stream.js";
import { addTool } from "./helpers/tools.js";

const config = { model: testModel, convertToLlm: defaultConvertToLlm };

describe("event sequence", () => {
	test("a reply without tools: agent_start, one turn with the prompt and the streamed reply, agent_end", async () => {
		const streamFn = scriptedStream([reply("Hello there")]);
		const { events, result } = await collect(agentLoop([user("Hi")], { systemPrompt: "", messages: [] }, config, undefined, streamFn));
		expect(types(events)).toEqual([
			"agent_start",
			"turn_start",
			"message_start", // the prompt
			"message_end",
			"message_start", // the reply
			"message_update", // text_start
			"message_update", // text_delta
			"message_update", // text_delta
			"message_update", // text_end
			"message_end",
			"turn_end",
			"agent_end",
		]);
		assertRunInvariants(events);
		expect(result.map((message) => message.role)).toEqual(["user", "assistant"]);
		expect(textOf(result[1])).toBe("Hello there");
	});

	test("a tool turn: the tool's events and its result message come between the reply and turn_end, then a new turn", async () => {
		const add = addTool();
		const streamFn = scriptedStream([reply([fauxToolCall("add", { a: 2, b: 3 }, { id: "call-1" })]), reply("5")]);
		const { events, result } = await collect(
			agentLoop([user("2+3?")], { systemPrompt: "sys", messages: [], tools: [add] }, config, undefined, streamFn),
		);
		assertRunInvariants(events);
		const outline = events.filter((event) => event.type !== "message_update").map((event) => {
			if (event.type === "message_start" || event.type === "message_end") return `${event.type}:${event.message.role}`;
			return event.type;
		});
		expect(outline).toEqual([
			"agent_start",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
			"message_end:assistant",
			"tool_execution_start",
			"tool_execution_end",
			"message_start:toolResult",
			"message_end:toolResult",
			"turn_end",
			"turn_start",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		const toolEnd = events.find((event) => event.type === "tool_execution_end");
		expect(toolEnd).toMatchObject({ toolCallId: "call-1", toolName: "add", isError: false, result: { details: { sum: 5 } } });
		const firstTurnEnd = events.find((event) => event.type === "turn_end") as Extract<AgentEvent, { type: "turn_end" }>;
		expect(firstTurnEnd.toolResults).toHaveLength(1);
		expect(firstTurnEnd.toolResults[0]).toMatchObject({ role: "toolResult", toolCallId: "call-1", isError: false });
		expect(result.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		// The second call saw the tool result; the system prompt and tools went with every call.
		expect(streamFn.contexts[1]?.messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(streamFn.contexts[0]?.systemPrompt).toBe("sys");
		expect(streamFn.contexts[0]?.tools?.map((tool) => tool.name)).toEqual(["add"]);
	});

	test("message_update carries the live partial reply and the provider's event", async () => {
		const streamFn = scriptedStream([reply("abcd")]);
		const { events } = await collect(agentLoop([user("x")], { systemPrompt: "", messages: [] }, config, undefined, streamFn));
		const updates = events.filter((event) => event.type === "message_update");
		const start = events.find((event) => event.type === "message_start" && event.message.role === "assistant");
		for (const update of updates) expect(update.message).toBe(start?.type === "message_start" ? start.message : undefined);
		expect(updates.map((update) => update.assistantMessageEvent.type)).toEqual(["text_start", "text_delta", "text_delta", "text_end"]);
	});

	test("the caller's context is not modified; result() holds only the run's new messages", async () => {
		const history = [user("earlier"), reply("earlier answer")];
		const context = { systemPrompt: "", messages: history };
		const streamFn = scriptedStream([reply("now")]);
		const { result } = await collect(agentLoop([user("now?")], context, config, undefined, streamFn));
		expect(context.messages).toBe(history);
		expect(history).toHaveLength(2);
		expect(result.map(textOf)).toEqual(["now?", "now"]);
		expect(streamFn.contexts[0]?.messages.map(textOf)).toEqual(["earlier", "earlier answer", "now?"]);
	});

	test("runAgentLoop awaits an async sink before going on", async () => {
		const log: string[] = [];
		const streamFn = scriptedStream([reply("ok")]);
		const messages = await runAgentLoop(
			[user("hi")],
			{ systemPrompt: "", messages: [] },
			config,
			async (event) => {
				log.push(`begin ${event.type}`);
				await new Promise((resolve) => setTimeout(resolve, 1));
				log.push(`end ${event.type}`);
			},
			undefined,
			streamFn,
		);
		expect(messages).toHaveLength(2);
		// Strictly alternating: no event is delivered while the previous one's sink is still running.
		for (let i = 0; i < log.length; i += 2) {
			expect(log[i]?.replace("begin ", "")).toBe(log[i + 1]?.replace("end ", ""));
		}
	});

	test("stream options reach the stream function; loop-only fields do not", async () => {
		const streamFn = scriptedStream([reply("ok")]);
		await collect(
			agentLoop(
				[user("hi")],
				{ systemPrompt: "", messages: [] },
				{ ...config, temperature: 0.3, maxTokens: 77, reasoning: "high", sessionId: "s-1", apiKey: "key-from-config" },
				undefined,
				streamFn,
			),
		);
		const options = streamFn.options[0];
		expect(options).toMatchObject({ temperature: 0.3, maxTokens: 77, reasoning: "high", sessionId: "s-1", apiKey: "key-from-config" });
		expect(options?.signal).toBeInstanceOf(AbortSignal);
		expect(options).not.toHaveProperty("convertToLlm");
		expect(options).not.toHaveProperty("model");
	});

	test("getApiKey resolves the key before each call, per provider", async () => {
		const asked: string[] = [];
		const streamFn = scriptedStream([reply([fauxToolCall("add", { a: 1, b: 1 })]), reply("2")]);
		await collect(
			agentLoop(
				[user("1+1")],
				{ systemPrompt: "", messages: [], tools: [addTool()] },
				{ ...config, apiKey: "fallback", getApiKey: async (provider) => (asked.push(provider), `key-${asked.length}`) },
				undefined,
				streamFn,
			),
		);
		expect(asked).toEqual(["scripted", "scripted"]);
		expect(streamFn.options.map((options) => options?.apiKey)).toEqual(["key-1", "key-2"]);
	});

	test("transformContext runs before convertToLlm, on the transcript, before each call", async () => {
		const calls: string[] = [];
		const streamFn = scriptedStream([reply("ok")]);
		await collect(
			agentLoop(
				[user("b")],
				{ systemPrompt: "", messages: [user("a")] },
				{
					...config,
					transformContext: async (messages) => {
						calls.push(`transform:${messages.length}`);
						return messages.slice(-1); // keep only the latest message
					},
					convertToLlm: (messages) => {
						calls.push(`convert:${messages.length}`);
						return defaultConvertToLlm(messages);
					},
				},
				undefined,
				streamFn,
			),
		);
		expect(calls).toEqual(["transform:2", "convert:1"]);
		expect(streamFn.contexts[0]?.messages.map(textOf)).toEqual(["b"]);
	});
});
