import { createMemorySessionStorage, openSession } from "@pi/agent-core";
import { describe, expect, it } from "vitest";
import { assistant, texts, user } from "./helpers.js";

describe("branching and buildContext", () => {
	it("appending moves the leaf; buildContext follows the path from the leaf to the root", async () => {
		const session = await openSession(createMemorySessionStorage());
		expect(session.leafId).toBeNull();
		expect(await session.buildContext()).toEqual({ messages: [], model: undefined, thinkingLevel: undefined, systemPrompt: undefined });
		const first = await session.appendMessage(user("hi"));
		expect(first.parentId).toBeNull();
		expect(session.leafId).toBe(first.id);
		const second = await session.appendMessage(assistant("hello"));
		expect(second.parentId).toBe(first.id);
		expect(session.leafId).toBe(second.id);
		expect(texts((await session.buildContext()).messages)).toEqual(["hi", "hello"]);
		await session.close();
	});

	it("branch() continues from an earlier entry; both leaves build their own context, and the old branch stays in the log", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		const question = await session.appendMessage(user("question"));
		const answerA = await session.appendMessage(assistant("answer A"));
		const followA = await session.appendMessage(user("more on A"));
		await session.branch(question.id);
		expect(session.leafId).toBe(question.id);
		const answerB = await session.appendMessage(assistant("answer B", "claude-haiku-4-5", "anthropic"));
		expect(answerB.parentId).toBe(question.id);

		expect(texts((await session.buildContext(followA.id)).messages)).toEqual(["question", "answer A", "more on A"]);
		expect((await session.buildContext(followA.id)).model).toEqual({ provider: "openai", modelId: "gpt-6-luna" });
		expect(texts((await session.buildContext()).messages)).toEqual(["question", "answer B"]);
		expect((await session.buildContext()).model).toEqual({ provider: "anthropic", modelId: "claude-haiku-4-5" });
		// The branch() is in the log too: a leaf entry under the question, before answer B.
		const entries = await session.entries();
		expect(entries.map((e) => e.id)).toEqual([question.id, answerA.id, followA.id, entries[3]?.id, answerB.id]);
		expect(entries[3]).toMatchObject({ type: "leaf", parentId: question.id });
		await session.close();

		// Reopened, the leaf is the log's last entry (answer B was appended after the branch()); the other branch is read for buildContext
		// without moving the leaf, and loads on branch().
		const reopened = await openSession(storage.reopen());
		expect(reopened.leafId).toBe(answerB.id);
		expect(texts((await reopened.buildContext()).messages)).toEqual(["question", "answer B"]);
		expect(texts((await reopened.buildContext(followA.id)).messages)).toEqual(["question", "answer A", "more on A"]);
		expect(reopened.leafId).toBe(answerB.id);
		expect(reopened.getEntry(followA.id)).toBeUndefined();
		await reopened.branch(followA.id);
		expect(reopened.getEntry(followA.id)?.id).toBe(followA.id);
		expect(texts((await reopened.buildContext()).messages)).toEqual(["question", "answer A", "more on A"]);
		expect(texts((await reopened.buildContext(answerB.id)).messages)).toEqual(["question", "answer B"]);
		await reopened.close();
	});

	it("branch(null) starts a new root", async () => {
		const session = await openSession(createMemorySessionStorage());
		await session.appendMessage(user("old"));
		await session.branch(null);
		expect((await session.buildContext()).messages).toEqual([]);
		const root = await session.appendMessage(user("new"));
		expect(root.parentId).toBeNull();
		expect(texts((await session.buildContext()).messages)).toEqual(["new"]);
		await session.close();
	});

	it("branch() to an unknown entry throws, naming it", async () => {
		const session = await openSession(createMemorySessionStorage());
		await expect(session.branch("nope")).rejects.toThrow(/no entry nope/);
		await expect(session.buildContext("nope")).rejects.toThrow(/no entry nope/);
		await session.close();
	});

	it("settings come from the latest change entries on the path; a model_change outranks the replies", async () => {
		const session = await openSession(createMemorySessionStorage());
		await session.append([
			{ type: "system_prompt_change", systemPrompt: "Be brief." },
			{ type: "thinking_level_change", thinkingLevel: "low" },
		]);
		await session.appendMessage(user("hi"));
		await session.appendMessage(assistant("hello", "gpt-6-luna", "openai"));
		expect(await session.buildContext()).toMatchObject({ model: { provider: "openai", modelId: "gpt-6-luna" }, thinkingLevel: "low", systemPrompt: "Be brief." });
		const change = await session.append([
			{ type: "model_change", provider: "anthropic", modelId: "claude-haiku-4-5" },
			{ type: "thinking_level_change", thinkingLevel: "high" },
			{ type: "system_prompt_change", systemPrompt: "Be thorough." },
		]);
		expect(await session.buildContext()).toMatchObject({ model: { provider: "anthropic", modelId: "claude-haiku-4-5" }, thinkingLevel: "high", systemPrompt: "Be thorough." });
		// A reply reporting another model name does not displace the app's explicit choice.
		await session.appendMessage(assistant("renamed", "claude-haiku-4-5-20261001", "anthropic"));
		expect((await session.buildContext()).model).toEqual({ provider: "anthropic", modelId: "claude-haiku-4-5" });
		// Settings entries are not messages.
		expect(texts((await session.buildContext()).messages)).toEqual(["hi", "hello", "renamed"]);
		expect(change.map((e) => e.type)).toEqual(["model_change", "thinking_level_change", "system_prompt_change"]);
		await session.close();
	});
});
