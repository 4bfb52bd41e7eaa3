import { Agent, createMemorySessionStorage, openSession } from "@pi/agent-core";
import { getModel } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { textOf } from "../helpers/collect.js";
import { reply, scriptedStream, testModel } from "../helpers/scripted-stream.js";
import { assistant } from "./helpers.js";

const luna = () => getModel("openai", "gpt-6-luna");
const haiku = () => getModel("anthropic", "claude-haiku-4-5");

describe("settings in the session", () => {
	it("initialState's model, thinking level and system prompt are appended before the first model call, and a resumed agent gets them back", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		let typesAtModelCall: string[] = [];
		const streamFn = scriptedStream([
			async () => {
				typesAtModelCall = (await session.path()).map((entry) => entry.type);
				return reply("hi");
			},
		]);
		const agent = new Agent({ session, initialState: { model: luna(), thinkingLevel: "high", systemPrompt: "Be brief." }, streamFn });
		await agent.prompt("hello");
		expect(typesAtModelCall).toEqual(["model_change", "thinking_level_change", "system_prompt_change", "message"]);
		await session.close();

		const reopened = await openSession(storage.reopen());
		const resumed = new Agent({ session: reopened });
		expect(resumed.state.model).toEqual(luna());
		expect(resumed.state.thinkingLevel).toBe("high");
		expect(resumed.state.systemPrompt).toBe("Be brief.");
		expect(resumed.state.messages.map(textOf)).toEqual(["hello", "hi"]);
		await reopened.close();
	});

	it("changes made later are appended before the next model call; unchanged settings append nothing", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		const agent = new Agent({ session, initialState: { model: luna() }, streamFn: scriptedStream([reply("one"), reply("two"), reply("three")]) });
		await agent.prompt("first");
		expect((await session.path()).map((e) => e.type)).toEqual(["model_change", "message", "message"]);
		await agent.prompt("second");
		expect((await session.path()).map((e) => e.type)).toEqual(["model_change", "message", "message", "message", "message"]);
		agent.state.model = haiku();
		agent.state.thinkingLevel = "low";
		agent.state.systemPrompt = "Answer in French.";
		await agent.prompt("third");
		expect((await session.path()).map((e) => e.type).slice(5)).toEqual(["model_change", "thinking_level_change", "system_prompt_change", "message", "message"]);
		await session.close();

		const resumed = new Agent({ session: await openSession(storage.reopen()) });
		expect(resumed.state.model).toEqual(haiku());
		expect([resumed.state.thinkingLevel, resumed.state.systemPrompt]).toEqual(["low", "Answer in French."]);
		await resumed.session?.close();
	});

	it("initialState overrides a setting the session recorded, and the override is recorded", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		await new Agent({ session, initialState: { model: luna(), systemPrompt: "old" }, streamFn: scriptedStream([reply("a")]) }).prompt("q");
		await session.close();
		const reopened = await openSession(storage.reopen());
		const agent = new Agent({ session: reopened, initialState: { systemPrompt: "new" }, streamFn: scriptedStream([reply("b")]) });
		expect(agent.state.systemPrompt).toBe("new");
		expect(agent.state.model).toEqual(luna());
		await agent.prompt("q2");
		expect((await reopened.buildContext()).systemPrompt).toBe("new");
		await reopened.close();
	});
});

describe("resume restores the model", () => {
	it("from the last model_change, looked up in the catalog", async () => {
		const session = await openSession(createMemorySessionStorage());
		await session.append([{ type: "model_change", provider: "anthropic", modelId: "claude-haiku-4-5" }]);
		await session.appendMessage({ role: "user", content: "hi", timestamp: 1 });
		await session.appendMessage(assistant("hello", "gpt-6-luna", "openai"));
		expect(new Agent({ session }).state.model).toEqual(haiku());
		await session.close();
	});

	it("else from the last assistant message's provider and model", async () => {
		const session = await openSession(createMemorySessionStorage());
		await session.appendMessage({ role: "user", content: "hi", timestamp: 1 });
		await session.appendMessage(assistant("hello", "claude-haiku-4-5", "anthropic"));
		await session.appendMessage(assistant("again", "gpt-6-luna", "openai"));
		const agent = new Agent({ session });
		expect(agent.state.model).toEqual(luna());
		await session.close();
	});

	it("a model the catalog lacks: the run fails with an error naming it, unless the app passes a model", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		await session.append([{ type: "model_change", provider: "acme", modelId: "acme-large-9" }]);
		await session.appendMessage({ role: "user", content: "hi", timestamp: 1 });
		const streamFn = scriptedStream([reply("never")]);
		const agent = new Agent({ session, streamFn });
		await agent.prompt("are you there?");
		const last = agent.state.messages.at(-1) as { stopReason: string; errorMessage: string };
		expect(last.stopReason).toBe("error");
		expect(last.errorMessage).toMatch(/acme\/acme-large-9.*not in the model catalog.*agent\.state\.model/);
		expect(streamFn.pending).toBe(1);
		await session.close();

		const again = await openSession(storage.reopen());
		const withModel = new Agent({ session: again, initialState: { model: testModel }, streamFn: scriptedStream([reply("here")]) });
		await withModel.prompt("now?");
		expect(textOf(withModel.state.messages.at(-1))).toBe("here");
		expect((await again.buildContext()).model).toEqual({ provider: "scripted", modelId: "scripted-1" });
		await again.close();
	});
});
