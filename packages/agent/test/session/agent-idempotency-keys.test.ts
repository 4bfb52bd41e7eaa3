import { Agent, createMemorySessionStorage, openSession } from "@pi/agent-core";
import { describe, expect, it } from "vitest";
import { reply, scriptedStream, testModel } from "../helpers/scripted-stream.js";

describe("an agent's idempotencyKey option", () => {
	it("keys the session entry of each message it names, so a new agent on the session finds them", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		const keys = new Map<unknown, string>();
		const agent = new Agent({
			session,
			initialState: { model: testModel },
			streamFn: scriptedStream([reply("Hello.")]),
			idempotencyKey: (message) => keys.get(message) ?? (message.role === "assistant" ? "reply-1" : undefined),
		});
		const prompt = { role: "user" as const, content: "Hi", timestamp: 1 };
		keys.set(prompt, "ui-1");
		await agent.prompt(prompt);

		const userEntry = session.findByIdempotencyKey("ui-1");
		const replyEntry = session.findByIdempotencyKey("reply-1");
		expect(session.getEntry(userEntry ?? "")).toMatchObject({ type: "message", message: { role: "user", content: "Hi" } });
		expect(session.getEntry(replyEntry ?? "")).toMatchObject({ type: "message", message: { role: "assistant" } });
		await session.close();

		const reopened = await openSession(storage.reopen());
		expect(reopened.findByIdempotencyKey("ui-1")).toBe(userEntry);
		expect(reopened.findByIdempotencyKey("reply-1")).toBe(replyEntry);
	});

	it("leaves entries without a key when it is not set", async () => {
		const session = await openSession(createMemorySessionStorage());
		const agent = new Agent({ session, initialState: { model: testModel }, streamFn: scriptedStream([reply("Hello.")]) });
		await agent.prompt("Hi");
		expect((await session.path()).some((entry) => entry.type === "message" && entry.idempotencyKey !== undefined)).toBe(false);
	});
});
