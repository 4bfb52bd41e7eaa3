/**
 * Every `AgentOptions` key reaches the loop. The run options (`AgentRunOptions`) are one list:
 * each has a probe below that sets it on `new Agent({...})`, runs the agent, and checks the
 * loop acted on it. `Record<keyof AgentRunOptions, …>` makes the type check reject a missing
 * probe, and the runtime key list is compared with the probes, so an option added to
 * `AgentRunOptions` without reaching the loop fails here. The agent-only options (`initialState`,
 * `streamFn`, the queue modes, `session`, `idempotencyKey`) have their own tests; the type check below keeps that
 * list closed.
 */
import { type AssistantMessage, fauxToolCall, type SimpleStreamOptions } from "@pi/ai";
import { describe, expect, test } from "vitest";
import { AGENT_RUN_OPTION_KEYS } from "../src/agent/agent-options.js";
import { Agent, type AgentMessage, type AgentOptions, type AgentRunOptions } from "../src/index.js";
import { history } from "./compaction/faux-agent.js";
import { record, user } from "./helpers/collect.js";
import { reply, scriptedStream, testModel } from "./helpers/scripted-stream.js";
import { addTool, customTool } from "./helpers/tools.js";

/** Fails to type-check when `AgentOptions` gains a key that is neither a run option nor listed here. */
type AgentOnlyKey = "initialState" | "streamFn" | "steeringMode" | "followUpMode" | "session" | "idempotencyKey";
const closed: Exclude<keyof AgentOptions, keyof AgentRunOptions | AgentOnlyKey> extends never ? true : never = true;

/** Runs one agent with `options` on a scripted model; returns what the loop did. */
async function run(options: AgentOptions, steps = [reply("done")], messages: AgentMessage[] = [], model = testModel) {
	const streamFn = scriptedStream(steps);
	const agent = new Agent({ initialState: { model, tools: [addTool()], messages }, streamFn, ...options });
	const events = record(agent);
	if (messages.length > 0) await agent.continue();
	else await agent.prompt("go");
	return { agent, events, streamFn };
}

const toolTurn = () => [reply([fauxToolCall("add", { a: 1, b: 2 })]), reply("done")];
const seen = (options: SimpleStreamOptions | undefined) => options as Record<string, unknown>;

const probes: Record<keyof AgentRunOptions, () => Promise<void>> = {
	async convertToLlm() {
		const { streamFn } = await run({ convertToLlm: () => [{ role: "user", content: "converted", timestamp: 1 }] });
		expect(streamFn.contexts[0]?.messages).toEqual([{ role: "user", content: "converted", timestamp: 1 }]);
	},
	async transformContext() {
		const { streamFn } = await run({ transformContext: async (messages) => [...messages, user("added by transformContext")] });
		expect(streamFn.contexts[0]?.messages.at(-1)).toMatchObject({ content: "added by transformContext" });
	},
	async getApiKey() {
		const { streamFn } = await run({ getApiKey: (provider) => `key-for-${provider}` });
		expect(streamFn.options[0]?.apiKey).toBe("key-for-scripted");
	},
	async onPayload() {
		const onPayload = () => undefined;
		const { streamFn } = await run({ onPayload });
		expect(streamFn.options[0]?.onPayload).toBe(onPayload);
	},
	async beforeToolCall() {
		const { events } = await run({ beforeToolCall: async () => ({ block: true, reason: "blocked by the probe" }) }, toolTurn());
		expect(events.find((event) => event.type === "tool_execution_end")).toMatchObject({ isError: true });
	},
	async afterToolCall() {
		const { events } = await run({ afterToolCall: async () => ({ details: "replaced by the probe" }) }, toolTurn());
		expect(events.find((event) => event.type === "tool_execution_end")).toMatchObject({ result: { details: "replaced by the probe" } });
	},
	async shouldStopAfterTurn() {
		const { streamFn } = await run({ shouldStopAfterTurn: () => true }, toolTurn());
		expect(streamFn.contexts).toHaveLength(1);
	},
	async sessionId() {
		const { streamFn } = await run({ sessionId: "session-probe" });
		expect(streamFn.options[0]?.sessionId).toBe("session-probe");
	},
	async thinkingBudgets() {
		const { streamFn } = await run({ thinkingBudgets: { low: 123 } });
		expect(seen(streamFn.options[0]).thinkingBudgets).toEqual({ low: 123 });
	},
	async maxRetryDelayMs() {
		const { streamFn } = await run({ maxRetryDelayMs: 4_321 });
		expect(streamFn.options[0]?.maxRetryDelayMs).toBe(4_321);
	},
	async toolExecution() {
		// Sequential: the second call starts only after the first ended.
		const order: string[] = [];
		const slow = customTool("slow", async () => {
			order.push("slow start");
			await new Promise((resolve) => setTimeout(resolve, 5));
			order.push("slow end");
		});
		const fast = customTool("fast", () => {
			order.push("fast start");
		});
		const streamFn = scriptedStream([reply([fauxToolCall("slow", { text: "a" }), fauxToolCall("fast", { text: "b" })]), reply("done")]);
		const agent = new Agent({ initialState: { model: testModel, tools: [slow, fast] }, streamFn, toolExecution: "sequential" });
		await agent.prompt("go");
		expect(order).toEqual(["slow start", "slow end", "fast start"]);
	},
	async maxTurns() {
		const { streamFn } = await run({ maxTurns: 1 }, toolTurn());
		expect(streamFn.contexts).toHaveLength(1);
	},
	async streamDeferred() {
		const placeholder: AssistantMessage = {
			...reply(""),
			stopReason: "deferred",
			api: testModel.api,
			provider: testModel.provider,
			model: testModel.id,
			deferred: { api: testModel.api, provider: testModel.provider, modelId: testModel.id, id: "job-1" },
		};
		const handles: string[] = [];
		const answer = scriptedStream([reply("redeemed")]);
		const { agent } = await run(
			{
				streamDeferred: (model, handle) => {
					handles.push(handle.id);
					return answer(model, { messages: [] });
				},
			},
			[],
			[user("go"), placeholder],
		);
		expect(handles).toEqual(["job-1"]);
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
	},
	async compaction() {
		const { events } = await run(
			{ compaction: { enabled: true, reserveTokens: 1_000, keepRecentTokens: 500 } },
			[reply("## Goal\nA summary."), reply("done")],
			[...history(4), user("and now?")],
			{ ...testModel, contextWindow: 4_000 },
		);
		expect(events.map((event) => event.type)).toContain("compaction_start");
	},
	async output() {
		const output = { schema: { type: "object" } as never, name: "probe" };
		const { streamFn } = await run({ output });
		expect(seen(streamFn.options[0]).output).toBe(output);
	},
};

describe("AgentOptions", () => {
	test("the agent-only options are a closed list (checked by the type check)", () => {
		expect(closed).toBe(true);
	});

	test("every run option has a probe, and the probes name no other key", () => {
		expect(Object.keys(probes).sort()).toEqual([...AGENT_RUN_OPTION_KEYS].sort());
	});

	for (const key of AGENT_RUN_OPTION_KEYS) {
		test(`${key} reaches the loop`, async () => {
			await probes[key]();
		});
	}

	test("a run option changed on the instance applies to the next run", async () => {
		const streamFn = scriptedStream([reply("one"), reply("two")]);
		const agent = new Agent({ initialState: { model: testModel }, streamFn, sessionId: "first" });
		await agent.prompt("one");
		agent.sessionId = "second";
		await agent.prompt("two");
		expect(streamFn.options.map((options) => options?.sessionId)).toEqual(["first", "second"]);
	});
});
