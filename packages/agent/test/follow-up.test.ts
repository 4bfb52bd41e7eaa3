import { fauxToolCall } from "@pi/ai";
import { describe, expect, test } from "vitest";
import { Agent } from "../src/index.js";
import { record, textOf, user } from "./helpers/collect.js";
import { assertRunInvariants } from "./helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "./helpers/scripted-stream.js";
import { customTool } from "./helpers/tools.js";

const userTexts = (messages: { role: string }[]) => messages.filter((message) => message.role === "user").map((message) => textOf(message as never));

describe("follow-ups", () => {
	test("wait until the agent would stop (tools answered first), then start another turn", async () => {
		const streamFn = scriptedStream([reply([fauxToolCall("t", { text: "x" })]), reply("answered the tool"), reply("answered the follow-up")]);
		let agent!: Agent;
		const t = customTool("t", () => {
			agent.followUp(user("and then?"));
		});
		agent = new Agent({ initialState: { model: testModel, tools: [t] }, streamFn });
		const events = record(agent);
		await agent.prompt("go");
		assertRunInvariants(events);
		// The follow-up was not delivered with the tool results, only after the agent would have stopped.
		expect(userTexts(streamFn.contexts[1]!.messages)).toEqual(["go"]);
		expect(userTexts(streamFn.contexts[2]!.messages)).toEqual(["go", "and then?"]);
		expect(events.filter((event) => event.type === "turn_start")).toHaveLength(3);
		expect(events.filter((event) => event.type === "agent_start")).toHaveLength(1);
	});

	test("one-at-a-time (default): one follow-up per turn", async () => {
		const streamFn = scriptedStream([reply("a"), reply("b"), reply("c")]);
		const agent = new Agent({ initialState: { model: testModel }, streamFn });
		agent.subscribe((event) => {
			if (event.type === "agent_start") {
				agent.followUp(user("one"));
				agent.followUp(user("two"));
			}
		});
		await agent.prompt("go");
		expect(streamFn.contexts).toHaveLength(3);
		expect(agent.state.messages.map(textOf)).toEqual(["go", "a", "one", "b", "two", "c"]);
	});

	test("all: every queued follow-up in one turn", async () => {
		const streamFn = scriptedStream([reply("a"), reply("b")]);
		const agent = new Agent({ initialState: { model: testModel }, streamFn, followUpMode: "all" });
		agent.subscribe((event) => {
			if (event.type === "agent_start") {
				agent.followUp(user("one"));
				agent.followUp(user("two"));
			}
		});
		await agent.prompt("go");
		expect(streamFn.contexts).toHaveLength(2);
		expect(agent.state.messages.map(textOf)).toEqual(["go", "a", "one", "two", "b"]);
	});

	test("modes can be changed on the instance", () => {
		const agent = new Agent();
		expect(agent.followUpMode).toBe("one-at-a-time");
		expect(agent.steeringMode).toBe("one-at-a-time");
		agent.followUpMode = "all";
		agent.steeringMode = "interrupt";
		expect(agent.followUpMode).toBe("all");
		expect(agent.steeringMode).toBe("interrupt");
	});

	test("not lost on abort: queued follow-ups survive an aborted run; continue() delivers them", async () => {
		const streamFn = scriptedStream([{ stall: "long answer" }, reply("answered the follow-up")]);
		const agent = new Agent({ initialState: { model: testModel }, streamFn });
		agent.subscribe((event) => {
			if (event.type === "message_update") {
				agent.followUp(user("later"));
				agent.abort();
			}
		});
		await agent.prompt("go");
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
		expect(agent.hasQueuedMessages()).toBe(true);
		await agent.continue();
		expect(agent.state.messages.map(textOf).slice(-2)).toEqual(["later", "answered the follow-up"]);
	});

	test("not lost on error: a failed reply leaves follow-ups queued", async () => {
		const streamFn = scriptedStream([reply("", { stopReason: "error", errorMessage: "rate limited" })]);
		const agent = new Agent({ initialState: { model: testModel }, streamFn });
		agent.subscribe((event) => {
			if (event.type === "agent_start") agent.followUp(user("later"));
		});
		await agent.prompt("go");
		expect(agent.state.errorMessage).toBe("rate limited");
		expect(agent.hasQueuedMessages()).toBe(true);
	});
});
