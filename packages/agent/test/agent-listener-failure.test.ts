import { describe, expect, test } from "vitest";
import { Agent } from "../src/index.js";
import { record } from "./helpers/collect.js";
import { assertRunInvariants } from "./helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "./helpers/scripted-stream.js";

describe("a throwing Agent listener", () => {
	test("ends the run in good order with an error message; other listeners still get every event", async () => {
		const streamFn = scriptedStream([reply("never finished"), reply("next run")]);
		const agent = new Agent({ initialState: { model: testModel }, streamFn });
		agent.subscribe((event) => {
			if (event.type === "message_update") throw new Error("render crashed");
		});
		const events = record(agent);
		await agent.prompt("hi");
		assertRunInvariants(events);
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: "event listener failed: render crashed" });
		expect(agent.state.errorMessage).toBe("event listener failed: render crashed");
		expect(agent.state.isStreaming).toBe(false);
	});

	test("an async listener that rejects does the same", async () => {
		const agent = new Agent({ initialState: { model: testModel }, streamFn: scriptedStream([reply("x")]) });
		agent.subscribe(async (event) => {
			if (event.type === "turn_start") throw new Error("async crash");
		});
		const events = record(agent);
		await agent.prompt("hi");
		assertRunInvariants(events);
		expect(agent.state.errorMessage).toBe("event listener failed: async crash");
	});

	test("the agent stays usable: the next prompt runs normally", async () => {
		const streamFn = scriptedStream([reply("a"), reply("b")]);
		const agent = new Agent({ initialState: { model: testModel }, streamFn });
		let crash = true;
		agent.subscribe((event) => {
			if (crash && event.type === "message_end") {
				crash = false;
				throw new Error("once");
			}
		});
		await agent.prompt("one");
		await agent.prompt("two");
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
		expect(agent.state.errorMessage).toBeUndefined();
	});

	test("a throw on agent_end is recorded in errorMessage; the transcript is complete", async () => {
		const agent = new Agent({ initialState: { model: testModel }, streamFn: scriptedStream([reply("ok")]) });
		agent.subscribe((event) => {
			if (event.type === "agent_end") throw new Error("late");
		});
		await agent.prompt("hi");
		expect(agent.state.messages.at(-1)).toMatchObject({ stopReason: "stop" });
		expect(agent.state.errorMessage).toBe("event listener failed: late");
	});
});
