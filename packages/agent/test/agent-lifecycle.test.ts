import { describe, expect, test } from "vitest";
import { Agent, type AgentEvent } from "../src/index.js";
import { gate, record, textOf, user } from "./helpers/collect.js";
import { assertRunInvariants } from "./helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "./helpers/scripted-stream.js";

describe("Agent.prompt", () => {
	test("text with images becomes one user message", async () => {
		const streamFn = scriptedStream([reply("a cat")]);
		const agent = new Agent({ initialState: { model: testModel }, streamFn });
		await agent.prompt("What is this?", [{ type: "image", data: "iVBOR", mimeType: "image/png" }]);
		expect(agent.state.messages[0]).toMatchObject({
			role: "user",
			content: [
				{ type: "text", text: "What is this?" },
				{ type: "image", data: "iVBOR", mimeType: "image/png" },
			],
		});
	});

	test("a message or several messages", async () => {
		const streamFn = scriptedStream([reply("one"), reply("two")]);
		const agent = new Agent({ initialState: { model: testModel }, streamFn });
		await agent.prompt(user("single"));
		await agent.prompt([user("first"), user("second")]);
		expect(agent.state.messages.map(textOf)).toEqual(["single", "one", "first", "second", "two"]);
	});

	test("a second prompt while busy rejects; the first run is unaffected", async () => {
		const streamFn = scriptedStream([{ stall: "busy" }]);
		const agent = new Agent({ initialState: { model: testModel }, streamFn });
		const streaming = gate();
		agent.subscribe((event) => {
			if (event.type === "message_update") streaming.resolve();
		});
		const first = agent.prompt("one");
		await expect(agent.prompt("two")).rejects.toThrow(/already processing/);
		await expect(agent.continue()).rejects.toThrow(/already processing/);
		await streaming.promise;
		agent.abort();
		await first;
		expect(agent.state.messages.map(textOf)).toEqual(["one", "busy"]);
	});

	test("resolves only after async agent_end listeners settled", async () => {
		const agent = new Agent({ initialState: { model: testModel }, streamFn: scriptedStream([reply("ok")]) });
		let listenerDone = false;
		agent.subscribe(async (event) => {
			if (event.type !== "agent_end") return;
			await new Promise((resolve) => setTimeout(resolve, 10));
			listenerDone = true;
		});
		await agent.prompt("hi");
		expect(listenerDone).toBe(true);
		expect(agent.state.isStreaming).toBe(false);
	});
});

describe("Agent.continue", () => {
	test("from a user message: calls the model without adding a message", async () => {
		const streamFn = scriptedStream([reply("answer")]);
		const agent = new Agent({ initialState: { model: testModel, messages: [user("pending question")] }, streamFn });
		const events = record(agent);
		await agent.continue();
		assertRunInvariants(events);
		expect(agent.state.messages.map(textOf)).toEqual(["pending question", "answer"]);
	});

	test("with an empty transcript rejects", async () => {
		await expect(new Agent({ initialState: { model: testModel } }).continue()).rejects.toThrow("No messages to continue from");
	});

	test("from an assistant message with nothing queued rejects", async () => {
		const agent = new Agent({ initialState: { model: testModel, messages: [user("q"), reply("a")] } });
		await expect(agent.continue()).rejects.toThrow("Cannot continue from message role: assistant");
	});

	test("from an assistant message delivers queued steering (one at a time), else follow-ups", async () => {
		const streamFn = scriptedStream([reply("x"), reply("y"), reply("z")]);
		const agent = new Agent({ initialState: { model: testModel, messages: [user("q"), reply("a")] }, streamFn });
		agent.steer(user("s1"));
		agent.steer(user("s2"));
		agent.followUp(user("f1"));
		await agent.continue();
		// s1 first; s2 at the next poll, after the reply; then f1 once the agent would stop.
		expect(agent.state.messages.map(textOf)).toEqual(["q", "a", "s1", "x", "s2", "y", "f1", "z"]);
	});
});

describe("Agent.abort, waitForIdle, reset", () => {
	test("abort() ends the reply as aborted; waitForIdle resolves after the run", async () => {
		const agent = new Agent({ initialState: { model: testModel }, streamFn: scriptedStream([{ stall: "partial" }]) });
		void agent.prompt("go");
		await new Promise((resolve) => setTimeout(resolve, 2));
		agent.abort();
		await agent.waitForIdle();
		expect(agent.state.isStreaming).toBe(false);
		expect(agent.state.messages.at(-1)).toMatchObject({ stopReason: "aborted" });
		expect(agent.state.errorMessage).toBeTruthy();
	});

	test("waitForIdle resolves at once when idle", async () => {
		await new Agent().waitForIdle();
		expect(true).toBe(true);
	});

	test("reset() aborts a running run, clears transcript, queues and state; the old run touches nothing after", async () => {
		const streamFn = scriptedStream([{ stall: "partial" }, reply("fresh")]);
		const agent = new Agent({ initialState: { model: testModel }, streamFn });
		const events = record(agent);
		const running = agent.prompt("old");
		await new Promise((resolve) => setTimeout(resolve, 2));
		agent.followUp(user("queued"));
		agent.reset();
		expect(agent.state.messages).toEqual([]);
		expect(agent.state.isStreaming).toBe(false);
		expect(agent.hasQueuedMessages()).toBe(false);
		const eventsAtReset = events.length;
		await running;
		expect(agent.state.messages).toEqual([]);
		expect(events).toHaveLength(eventsAtReset);
		await agent.prompt("new");
		expect(agent.state.messages.map(textOf)).toEqual(["new", "fresh"]);
	});
});

describe("Agent.subscribe", () => {
	test("listeners run in subscription order, each awaited, with the run's signal", async () => {
		const agent = new Agent({ initialState: { model: testModel }, streamFn: scriptedStream([reply("ok")]) });
		const log: string[] = [];
		const signals = new Set<AbortSignal>();
		agent.subscribe(async (event, signal) => {
			signals.add(signal);
			log.push(`a:${event.type}`);
			await new Promise((resolve) => setTimeout(resolve, 1));
		});
		agent.subscribe((event) => {
			log.push(`b:${event.type}`);
		});
		await agent.prompt("hi");
		expect(log.slice(0, 4)).toEqual(["a:agent_start", "b:agent_start", "a:turn_start", "b:turn_start"]);
		expect(signals.size).toBe(1);
	});

	test("unsubscribe stops delivery", async () => {
		const agent = new Agent({ initialState: { model: testModel }, streamFn: scriptedStream([reply("a"), reply("b")]) });
		const seen: AgentEvent[] = [];
		const unsubscribe = agent.subscribe((event) => {
			seen.push(event);
		});
		await agent.prompt("one");
		const count = seen.length;
		unsubscribe();
		await agent.prompt("two");
		expect(seen).toHaveLength(count);
	});

	test("a listener that awaits slow work holds the run (backpressure)", async () => {
		const release = gate();
		const agent = new Agent({ initialState: { model: testModel }, streamFn: scriptedStream([reply("ok")]) });
		agent.subscribe(async (event) => {
			if (event.type === "turn_start") await release.promise;
		});
		const running = agent.prompt("hi");
		await new Promise((resolve) => setTimeout(resolve, 5));
		expect(agent.state.messages).toHaveLength(0); // the prompt's message_end has not happened yet
		release.resolve();
		await running;
		expect(agent.state.messages).toHaveLength(2);
	});
});
