import { readFileSync, writeFileSync } from "node:fs";
import { openSessionFile } from "@pi/agent-core/node";
import { describe, expect, it } from "vitest";
import { tempSessionPath } from "./file-helpers.js";
import { assistant, texts, user } from "./helpers.js";

describe("the JSONL session file", () => {
	it("starts with the session header, then one entry per line, each a complete JSON object", async () => {
		const path = tempSessionPath("nested/folder/chat.jsonl");
		const session = await openSessionFile(path);
		const first = await session.appendMessage(user("hi"));
		await session.append([
			{ type: "model_change", provider: "openai", modelId: "gpt-6-luna" },
			{ type: "thinking_level_change", thinkingLevel: "low" },
		]);
		await session.appendMessage(assistant("hello"));
		await session.close();

		const text = readFileSync(path, "utf8");
		expect(text.endsWith("\n")).toBe(true);
		const lines = text.slice(0, -1).split("\n").map((line) => JSON.parse(line));
		expect(lines[0]).toEqual({ type: "session", version: 1, id: session.id, timestamp: expect.any(Number) });
		expect(Object.keys(lines[0])).toEqual(["type", "version", "id", "timestamp"]);
		expect(lines[1]).toEqual({ type: "message", id: first.id, parentId: null, timestamp: expect.any(Number), message: { role: "user", content: "hi", timestamp: 1 } });
		// The pinned order of a line: type, id, parentId, timestamp, then the entry's fields.
		expect(Object.keys(lines[1])).toEqual(["type", "id", "parentId", "timestamp", "message"]);
		// The first line of a group of two says one more entry of the same append follows.
		expect(Object.keys(lines[2])).toEqual(["type", "id", "parentId", "timestamp", "provider", "modelId", "groupRemaining"]);
		expect([lines[2].groupRemaining, lines[3].groupRemaining]).toEqual([1, undefined]);
		expect(lines.slice(1).map((line) => line.type)).toEqual(["message", "model_change", "thinking_level_change", "message"]);
		for (const line of lines.slice(2)) expect(line.parentId).toBe(lines[lines.indexOf(line) - 1].id);
	});

	it("a new file is created with its folder; reopening gives the same id, entries and context", async () => {
		const path = tempSessionPath("a/b/c.jsonl");
		const session = await openSessionFile(path);
		expect(session.repaired).toBe(false);
		await session.appendMessage(user("one"));
		await session.appendMessage(assistant("two"));
		const context = (await session.buildContext());
		await session.close();
		const reopened = await openSessionFile(path);
		expect(reopened.id).toBe(session.id);
		expect(reopened.repaired).toBe(false);
		expect(await reopened.buildContext()).toEqual(context);
		expect(texts((await reopened.buildContext()).messages)).toEqual(["one", "two"]);
		await reopened.close();
	});

	it("reads pi coding-agent files: version 3 header, ISO timestamps, entry types it does not know", async () => {
		const path = tempSessionPath();
		const iso = "2026-11-30T10:00:00.000Z";
		const lines = [
			{ type: "session", version: 3, id: "pi-session", timestamp: iso, cwd: "/home/me/project" },
			{ type: "model_change", id: "a1", parentId: null, timestamp: iso, provider: "anthropic", modelId: "claude-haiku-4-5" },
			{ type: "message", id: "a2", parentId: "a1", timestamp: iso, message: { role: "user", content: "hi", timestamp: 1 } },
			{ type: "session_info", id: "a3", parentId: "a2", timestamp: iso, name: "greeting" },
			{ type: "label", id: "a4", parentId: "a3", timestamp: iso, targetId: "a2", label: "start" },
		];
		writeFileSync(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
		const session = await openSessionFile(path);
		expect(session.id).toBe("pi-session");
		expect(await session.buildContext()).toMatchObject({ model: { provider: "anthropic", modelId: "claude-haiku-4-5" } });
		expect(texts((await session.buildContext()).messages)).toEqual(["hi"]);
		expect(session.getLabel("a2")).toBe("start");
		expect(session.getEntry("a1")?.timestamp).toBe(Date.parse(iso));
		await session.appendMessage(user("more"));
		await session.close();
	});
});
