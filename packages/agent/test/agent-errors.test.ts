import { fauxAssistantMessage, registerFauxProvider, streamSimple } from "@pi/ai";
import { describe, expect, test } from "vitest";
import { Agent, type AgentEvent } from "../src/index.js";
import { user } from "./helpers/collect.js";
import { reply, scriptedStream, testModel } from "./helpers/scripted-stream.js";

const NO_MODEL_TEXT = "no model set: assign `agent.state.model` or pass `initialState.model`";

describe("errors that name the right cause", () => {
	test("without a model, a prompt ends its run with an error saying how to set one", async () => {
		const agent = new Agent();
		const events: AgentEvent["type"][] = [];
		agent.subscribe((event) => {
			events.push(event.type);
		});
		await agent.prompt("hi");
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: NO_MODEL_TEXT });
		expect(agent.state.errorMessage).toBe(NO_MODEL_TEXT);
		expect(agent.state.errorMessage).not.toContain("No API provider");
		expect(events[0]).toBe("agent_start");
		expect(events.at(-1)).toBe("agent_end");
		expect(agent.state.isStreaming).toBe(false);
	});

	test("continue() without a model says the same", async () => {
		const agent = new Agent({ initialState: { messages: [user("hi")] } });
		await agent.continue();
		expect(agent.state.errorMessage).toBe(NO_MODEL_TEXT);
	});

	test("streamSimple passed explicitly counts as the default: the missing model is named", async () => {
		const agent = new Agent({ streamFn: streamSimple });
		await agent.prompt("hi");
		expect(agent.state.errorMessage).toBe(NO_MODEL_TEXT);
	});

	test("once a model is assigned, the same agent runs normally", async () => {
		const faux = registerFauxProvider();
		try {
			faux.setResponses([fauxAssistantMessage("hello")]);
			const agent = new Agent();
			await agent.prompt("hi");
			expect(agent.state.errorMessage).toBe(NO_MODEL_TEXT);
			agent.state.model = faux.getModel();
			await agent.prompt("again");
			expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
			expect(agent.state.errorMessage).toBeUndefined();
		} finally {
			faux.unregister();
		}
	});

	test.each([
		["undefined", undefined, "prompt(input): `input` must be a string, a message (an object with a `role`) or an array of messages; got undefined"],
		["null", null, "got null"],
		["a number", 42, "got number"],
		["an object without a role", { content: "hi" }, "got object"],
	])("prompt(%s) rejects with an error naming prompt()'s argument, and starts no run", async (_label, input, text) => {
		const streamFn = scriptedStream([reply("never")]);
		const agent = new Agent({ streamFn, initialState: { model: testModel } });
		const events: AgentEvent["type"][] = [];
		agent.subscribe((event) => {
			events.push(event.type);
		});
		const error = await agent.prompt(input as never).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(TypeError);
		expect((error as Error).message).toContain(text);
		expect((error as Error).message).toMatch(/^prompt\(input\): `input`/);
		expect((error as Error).message).not.toContain("listener");
		expect(events).toEqual([]);
		expect(agent.state.messages).toEqual([]);
		expect(agent.state.isStreaming).toBe(false);
		// The agent is not left busy: a valid prompt runs.
		await agent.prompt("hi");
		expect(agent.state.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
	});

	test("prompt([...]) names the index of an element that is not a message", async () => {
		const agent = new Agent({ streamFn: scriptedStream([]), initialState: { model: testModel } });
		await expect(agent.prompt([user("a"), undefined as never])).rejects.toThrow("prompt(messages): messages[1] is not a message (an object with a `role`); got undefined");
	});

	test("prompt(text, images) rejects images that are not an array", async () => {
		const agent = new Agent({ streamFn: scriptedStream([]), initialState: { model: testModel } });
		await expect(agent.prompt("hi", "cat.png" as never)).rejects.toThrow("prompt(text, images): `images` must be an array of image blocks when given; got string");
	});
});
