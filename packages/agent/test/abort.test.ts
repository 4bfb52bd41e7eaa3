import { type AssistantMessageEventStream, createAssistantMessageEventStream, fauxToolCall } from "@pi/ai";
import { describe, expect, test } from "vitest";
import {
	ABORTED_TEXT,
	type AgentEvent,
	type AgentLoopConfig,
	type AgentTool,
	agentLoop,
	defaultConvertToLlm,
	runAgentLoop,
	type StreamFn,
	TOOL_ABORTED_TEXT,
} from "../src/index.js";
import { collect, textOf, user } from "./helpers/collect.js";
import { assertRunInvariants } from "./helpers/event-invariants.js";
import { reply, scriptedStream, type Step, testModel } from "./helpers/scripted-stream.js";
import { customTool } from "./helpers/tools.js";

function start(steps: Step[] | StreamFn, tools: AgentTool<any>[] = [], config: Partial<AgentLoopConfig> = {}) {
	const controller = new AbortController();
	const streamFn = typeof steps === "function" ? steps : scriptedStream(steps);
	const stream = agentLoop(
		[user("go")],
		{ systemPrompt: "", messages: [], tools },
		{ model: testModel, convertToLlm: defaultConvertToLlm, ...config },
		controller.signal,
		streamFn,
	);
	return { controller, stream, streamFn };
}

async function eventsUntil(stream: AsyncIterable<AgentEvent>, stop: (event: AgentEvent) => boolean, onStop: () => void) {
	const events: AgentEvent[] = [];
	let stopped = false;
	for await (const event of stream) {
		events.push(event);
		if (!stopped && stop(event)) {
			stopped = true;
			onStop();
		}
	}
	return events;
}

describe("abort before the run starts", () => {
	test("no model call; the run reports an aborted reply", async () => {
		const { controller, stream, streamFn } = start([reply("never")]);
		controller.abort();
		const { events, result } = await collect(stream);
		assertRunInvariants(events);
		expect((streamFn as ReturnType<typeof scriptedStream>).contexts).toHaveLength(0);
		expect(result.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted", errorMessage: ABORTED_TEXT });
	});
});

describe("abort while the reply streams", () => {
	test("ends the run with `aborted`, keeping the partial text", async () => {
		const { controller, stream } = start([{ stall: "Partial answ" }, reply("never")]);
		const events = await eventsUntil(stream, (event) => event.type === "message_update" && event.assistantMessageEvent.type === "text_delta", () => controller.abort());
		const ended = assertRunInvariants(events);
		const last = ended.at(-1);
		expect(last).toMatchObject({ role: "assistant", stopReason: "aborted" });
		expect(textOf(last)).toBe("Partial answ");
		expect(await stream.result()).toEqual(ended);
	});

	test("a stream function that ignores the signal cannot hold the run: the partial is kept all the same", async () => {
		// Streams one delta and then never ends, whatever the signal says.
		const deaf: StreamFn = () => {
			const events: AssistantMessageEventStream = createAssistantMessageEventStream();
			const partial = { ...reply(""), content: [{ type: "text" as const, text: "" }], stopReason: "pending" as const };
			events.push({ type: "start", partial });
			events.push({ type: "text_start", contentIndex: 0, partial });
			partial.content[0]!.text = "half";
			events.push({ type: "text_delta", contentIndex: 0, delta: "half", partial });
			return events;
		};
		const { controller, stream } = start(deaf);
		// Abort later, while the loop is waiting for an event that never comes.
		const events = await eventsUntil(
			stream,
			(event) => event.type === "message_update" && event.assistantMessageEvent.type === "text_delta",
			() => setTimeout(() => controller.abort(), 5),
		);
		const ended = assertRunInvariants(events);
		expect(ended.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted", errorMessage: ABORTED_TEXT });
		expect(textOf(ended.at(-1))).toBe("half");
	});

	test("abort during transformContext: no model call is made", async () => {
		const controller = new AbortController();
		const streamFn = scriptedStream([reply("never")]);
		const { events, result } = await collect(
			agentLoop(
				[user("go")],
				{ systemPrompt: "", messages: [] },
				{
					model: testModel,
					convertToLlm: defaultConvertToLlm,
					transformContext: async (messages) => {
						controller.abort();
						return messages;
					},
				},
				controller.signal,
				streamFn,
			),
		);
		assertRunInvariants(events);
		expect(streamFn.contexts).toHaveLength(0);
		expect(result.at(-1)).toMatchObject({ stopReason: "aborted" });
	});
});

describe("abort while tools run", () => {
	test("running tools get the aborted signal; every call gets an aborted result; no further model call", async () => {
		const signals: (AbortSignal | undefined)[] = [];
		const waiting = (name: string) =>
			customTool(name, (_params, signal) => {
				signals.push(signal);
				return new Promise((_resolve, reject) => signal?.addEventListener("abort", () => reject(new Error("stopped"))));
			});
		const { controller, stream, streamFn } = start(
			[reply([fauxToolCall("a", { text: "1" }, { id: "a1" }), fauxToolCall("b", { text: "2" }, { id: "b1" })]), reply("never")],
			[waiting("a"), waiting("b")],
		);
		let started = 0;
		const events = await eventsUntil(stream, (event) => event.type === "tool_execution_start" && ++started === 2, () => setTimeout(() => controller.abort(), 1));
		const ended = assertRunInvariants(events);
		expect(signals).toHaveLength(2);
		expect(signals.every((signal) => signal?.aborted)).toBe(true);
		const results = ended.filter((message) => message.role === "toolResult");
		expect(results.map((message) => [message.toolCallId, message.isError, textOf(message)])).toEqual([
			["a1", true, TOOL_ABORTED_TEXT],
			["b1", true, TOOL_ABORTED_TEXT],
		]);
		expect((streamFn as ReturnType<typeof scriptedStream>).contexts).toHaveLength(1);
		expect(events.at(-2)?.type).toBe("turn_end");
	});

	test("a tool that ignores the signal does not hold the run; its late result is dropped", async () => {
		let finishLate: (() => void) | undefined;
		const deaf = customTool("deaf", () => new Promise<void>((resolve) => (finishLate = resolve)));
		const { controller, stream } = start([reply([fauxToolCall("deaf", { text: "x" })]), reply("never")], [deaf]);
		const events = await eventsUntil(stream, (event) => event.type === "tool_execution_start", () => setTimeout(() => controller.abort(), 1));
		const ended = assertRunInvariants(events);
		expect(textOf(ended.at(-1))).toBe(TOOL_ABORTED_TEXT);
		finishLate?.();
		await new Promise((resolve) => setTimeout(resolve, 5));
		expect(await stream.result()).toEqual(ended);
	});

	test("sequential mode: calls not yet started get aborted results without running", async () => {
		let ran = 0;
		const first = customTool("first", (_params, signal) => {
			ran++;
			return new Promise((resolve) => signal?.addEventListener("abort", () => resolve()));
		});
		const second = customTool("second", () => {
			ran++;
		});
		const { controller, stream } = start(
			[reply([fauxToolCall("first", { text: "1" }), fauxToolCall("second", { text: "2" })]), reply("never")],
			[first, second],
			{ toolExecution: "sequential" },
		);
		const events = await eventsUntil(stream, (event) => event.type === "tool_execution_start", () => setTimeout(() => controller.abort(), 1));
		const ended = assertRunInvariants(events);
		expect(ran).toBe(1);
		expect(ended.filter((message) => message.role === "toolResult").map(textOf)).toEqual([TOOL_ABORTED_TEXT, TOOL_ABORTED_TEXT]);
	});
});

describe("abort between turns", () => {
	test("aborted in a turn_end listener: the next model call is not made, queues are not polled", async () => {
		const controller = new AbortController();
		const streamFn = scriptedStream([reply([fauxToolCall("t", { text: "x" })]), reply("never")]);
		let steeringPolls = 0;
		const events: AgentEvent[] = [];
		const messages = await runAgentLoop(
			[user("go")],
			{ systemPrompt: "", messages: [], tools: [customTool("t")] },
			{
				model: testModel,
				convertToLlm: defaultConvertToLlm,
				getSteeringMessages: () => (steeringPolls++, []),
			},
			(event) => {
				events.push(event);
				if (event.type === "turn_end") controller.abort();
			},
			controller.signal,
			streamFn,
		);
		assertRunInvariants(events);
		expect(streamFn.contexts).toHaveLength(1);
		expect(steeringPolls).toBe(1); // only the poll at the start of the run
		expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult"]);
	});
});

describe("abort is prompt even when a callback ignores the signal", () => {
	const never = () => new Promise<never>(() => {});

	test.each([
		["transformContext", { transformContext: never }],
		["getApiKey", { getApiKey: never }],
		["convertToLlm", { convertToLlm: never }],
	] as const)("%s never settles: abort ends the run at once as aborted, with no model call", async (_name, config) => {
		const { controller, stream, streamFn } = start([reply("never")], [], config as Partial<AgentLoopConfig>);
		setTimeout(() => controller.abort(), 5);
		const { events, result } = await collect(stream);
		assertRunInvariants(events);
		expect((streamFn as ReturnType<typeof scriptedStream>).contexts).toHaveLength(0);
		expect(result.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
	});

	test("an async stream function that never resolves", async () => {
		const { controller, stream } = start((() => never()) as unknown as StreamFn);
		setTimeout(() => controller.abort(), 5);
		const { events, result } = await collect(stream);
		assertRunInvariants(events);
		expect(result.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
	});

	test.each([
		["beforeToolCall", { beforeToolCall: never }],
		["afterToolCall", { afterToolCall: never }],
	] as const)("%s never settles: the call gets an aborted result", async (_name, config) => {
		const { controller, stream } = start([reply([fauxToolCall("t", { text: "x" })]), reply("never")], [customTool("t")], config as Partial<AgentLoopConfig>);
		setTimeout(() => controller.abort(), 5);
		const { events, result } = await collect(stream);
		assertRunInvariants(events);
		expect(result.at(-1)).toMatchObject({ role: "toolResult", isError: true, content: [{ type: "text", text: TOOL_ABORTED_TEXT }] });
	});
});
