import { fauxToolCall } from "@pi/ai";
import { describe, expect, test } from "vitest";
import { Agent, type AgentTool } from "../src/index.js";
import { record, textOf, user } from "./helpers/collect.js";
import { assertRunInvariants } from "./helpers/event-invariants.js";
import { reply, scriptedStream, type Step, testModel } from "./helpers/scripted-stream.js";
import { customTool } from "./helpers/tools.js";

/** An agent whose tool `work` steers the given messages while it runs. */
function agentSteeringDuringTool(steps: Step[], steer: string[], mode?: "one-at-a-time" | "all") {
	const streamFn = scriptedStream(steps);
	let agent!: Agent;
	const work: AgentTool<any> = customTool("work", () => {
		for (const text of steer) agent.steer(user(text));
	});
	agent = new Agent({ initialState: { model: testModel, tools: [work] }, streamFn, ...(mode ? { steeringMode: mode } : {}) });
	const events = record(agent);
	return { agent, streamFn, events };
}

const lastUserTexts = (messages: { role: string }[]) => messages.filter((message) => message.role === "user").map((message) => textOf(message as never));

describe("steering", () => {
	test("one-at-a-time (default): after the tool batch, one steering message per model call, tools never skipped", async () => {
		const { agent, streamFn, events } = agentSteeringDuringTool(
			[reply([fauxToolCall("work", { text: "x" }, { id: "w" })]), reply("saw first"), reply("saw second")],
			["first", "second"],
		);
		await agent.prompt("go");
		assertRunInvariants(events);
		expect(streamFn.contexts).toHaveLength(3);
		// Call 2: the tool result, then the first steering message. Call 3: the second.
		expect(streamFn.contexts[1]?.messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "user"]);
		expect(lastUserTexts(streamFn.contexts[1]!.messages)).toEqual(["go", "first"]);
		expect(lastUserTexts(streamFn.contexts[2]!.messages)).toEqual(["go", "first", "second"]);
		expect(agent.hasQueuedMessages()).toBe(false);
	});

	test("all: every queued steering message goes with the next model call", async () => {
		const { agent, streamFn } = agentSteeringDuringTool(
			[reply([fauxToolCall("work", { text: "x" })]), reply("saw both")],
			["first", "second"],
			"all",
		);
		await agent.prompt("go");
		expect(streamFn.contexts).toHaveLength(2);
		expect(lastUserTexts(streamFn.contexts[1]!.messages)).toEqual(["go", "first", "second"]);
	});

	test("a steering message keeps the agent going after a reply without tool calls", async () => {
		const streamFn = scriptedStream([reply("first answer"), reply("second answer")]);
		const agent = new Agent({ initialState: { model: testModel }, streamFn });
		agent.subscribe((event) => {
			if (event.type === "message_start" && event.message.role === "assistant" && streamFn.contexts.length === 1) agent.steer(user("also this"));
		});
		await agent.prompt("go");
		expect(agent.state.messages.map(textOf)).toEqual(["go", "first answer", "also this", "second answer"]);
	});

	test("a message steered while idle goes with the next prompt, after it", async () => {
		const streamFn = scriptedStream([reply("ok")]);
		const agent = new Agent({ initialState: { model: testModel }, streamFn });
		agent.steer(user("context note"));
		await agent.prompt("question");
		expect(lastUserTexts(streamFn.contexts[0]!.messages)).toEqual(["question", "context note"]);
	});

	test("steering comes before follow-ups", async () => {
		const streamFn = scriptedStream([reply("a"), reply("b"), reply("c")]);
		const agent = new Agent({ initialState: { model: testModel }, streamFn });
		agent.subscribe((event) => {
			if (event.type === "agent_start") {
				agent.followUp(user("follow-up"));
				agent.steer(user("steer"));
			}
		});
		await agent.prompt("go");
		expect(lastUserTexts(agent.state.messages)).toEqual(["go", "steer", "follow-up"]);
	});

	test("not lost on abort: a message steered during the tools stays queued, and continue() delivers it", async () => {
		const streamFn = scriptedStream([reply([fauxToolCall("work", { text: "x" })]), reply("after continue")]);
		let agent!: Agent;
		const work = customTool("work", () => {
			agent.steer(user("steered"));
			agent.abort();
		});
		agent = new Agent({ initialState: { model: testModel, tools: [work] }, streamFn });
		await agent.prompt("go");
		expect(streamFn.contexts).toHaveLength(1);
		expect(agent.hasQueuedMessages()).toBe(true);
		await agent.continue();
		expect(lastUserTexts(streamFn.contexts[1]!.messages)).toEqual(["go", "steered"]);
		expect(agent.hasQueuedMessages()).toBe(false);
	});

	test("not lost on error: a reply that fails leaves queued steering in the queue", async () => {
		const failing = scriptedStream([reply("unused", { stopReason: "error", errorMessage: "overloaded" })]);
		const agent = new Agent({ initialState: { model: testModel }, streamFn: failing });
		agent.subscribe((event) => {
			if (event.type === "message_start" && event.message.role === "assistant") agent.steer(user("steered"));
		});
		await agent.prompt("go");
		expect(agent.state.errorMessage).toBe("overloaded");
		expect(failing.contexts).toHaveLength(1);
		expect(agent.hasQueuedMessages()).toBe(true);
	});

	test("not lost when a listener fails while they are delivered: every drained message reaches the transcript", async () => {
		const streamFn = scriptedStream([reply([fauxToolCall("work", { text: "x" })]), reply("never")]);
		let agent!: Agent;
		const work = customTool("work", () => {
			agent.steer(user("first"));
			agent.steer(user("second"));
		});
		agent = new Agent({ initialState: { model: testModel, tools: [work] }, streamFn, steeringMode: "all" });
		agent.subscribe((event) => {
			if (event.type === "message_start" && textOf(event.message) === "first") throw new Error("ui crashed");
		});
		const events = record(agent);
		await agent.prompt("go");
		assertRunInvariants(events);
		expect(lastUserTexts(agent.state.messages)).toEqual(["go", "first", "second"]);
		expect(agent.state.messages.at(-1)).toMatchObject({ stopReason: "error", errorMessage: "event listener failed: ui crashed" });
		expect(agent.hasQueuedMessages()).toBe(false);
		expect(streamFn.contexts).toHaveLength(1);
	});

	test("clearSteeringQueue drops queued steering messages", () => {
		const agent = new Agent({ initialState: { model: testModel } });
		agent.steer(user("a"));
		agent.followUp(user("b"));
		agent.clearSteeringQueue();
		expect(agent.hasQueuedMessages()).toBe(true);
		agent.clearFollowUpQueue();
		expect(agent.hasQueuedMessages()).toBe(false);
		agent.steer(user("a"));
		agent.followUp(user("b"));
		agent.clearAllQueues();
		expect(agent.hasQueuedMessages()).toBe(false);
	});
});
