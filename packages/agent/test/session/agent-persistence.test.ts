import { Agent, createMemorySessionStorage, openSession, type SessionEntry, type SessionStorage } from "@pi/agent-core";
import { fauxToolCall } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { textOf } from "../helpers/collect.js";
import { assertRunInvariants } from "../helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "../helpers/scripted-stream.js";
import { customTool } from "../helpers/tools.js";
import { texts } from "./helpers.js";

/** The roles of the messages stored in the session, in log order. */
async function storedRoles(storage: SessionStorage): Promise<string[]> {
	const roles: string[] = [];
	for await (const entry of (await storage.load()).entries) if (entry.type === "message") roles.push((entry.message as { role: string }).role);
	return roles;
}

describe("an Agent with a session", () => {
	it("stores each message at its message_end, before the run goes on: the tool call before the tool runs, the result before the next model call", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		const seen: string[] = [];
		const reader = storage.reopen();
		const tool = customTool("lookup", async () => {
			seen.push(`tool runs after: ${(await storedRoles(reader)).join(",")}`);
		});
		const streamFn = scriptedStream([
			reply([fauxToolCall("lookup", { text: "x" }, { id: "call_1" })]),
			async () => {
				seen.push(`second model call after: ${(await storedRoles(reader)).join(",")}`);
				return reply("done");
			},
		]);
		const agent = new Agent({ session, initialState: { model: testModel, tools: [tool] }, streamFn });
		agent.subscribe(async (event) => {
			if (event.type === "message_end") seen.push(`listener hears ${(event.message as { role: string }).role} after: ${(await storedRoles(reader)).join(",")}`);
		});
		await agent.prompt("look it up");
		expect(seen).toEqual([
			"listener hears user after: user",
			"listener hears assistant after: user,assistant",
			"tool runs after: user,assistant",
			"listener hears toolResult after: user,assistant,toolResult",
			"second model call after: user,assistant,toolResult",
			"listener hears assistant after: user,assistant,toolResult,assistant",
		]);
		expect(agent.session).toBe(session);
		expect(agent.sessionId).toBe(session.id);
		expect(texts((await session.buildContext()).messages)).toEqual(agent.state.messages.map(textOf).map((text, i) => (i === 1 ? "[toolCall]" : text)));
		await session.close();
	});

	it("a failed append ends the run like any other failure: an error message naming it, then agent_end", async () => {
		const inner = createMemorySessionStorage();
		let appends = 0;
		const failing: SessionStorage = {
			load: () => inner.load(),
			lock: () => inner.lock(),
			close: () => inner.close(),
			async append(entries, expected) {
				// The third append (the tool result) fails, as a full disk would.
				if (++appends === 3) throw new Error("ENOSPC: no space left on device");
				return inner.append(entries, expected);
			},
		};
		const session = await openSession(failing);
		const tool = customTool("lookup");
		const streamFn = scriptedStream([reply([fauxToolCall("lookup", { text: "x" }, { id: "call_1" })]), reply("never reached")]);
		const agent = new Agent({ session, initialState: { model: testModel, tools: [tool] }, streamFn });
		const events: import("@pi/agent-core").AgentEvent[] = [];
		agent.subscribe((event) => {
			events.push(event);
		});
		await agent.prompt("go");
		assertRunInvariants(events);
		expect(events.at(-1)?.type).toBe("agent_end");
		const last = agent.state.messages.at(-1) as { role: string; stopReason: string; errorMessage: string };
		expect(last).toMatchObject({ role: "assistant", stopReason: "error" });
		expect(last.errorMessage).toMatch(/session append failed: ENOSPC/);
		expect(agent.state.errorMessage).toMatch(/session append failed/);
		expect(streamFn.pending).toBe(1); // the model was not called again
		await session.close();
	});

	it("messages that could not be stored are stored with the next ones, so the log never loses a message", async () => {
		const inner = createMemorySessionStorage();
		let fail = true;
		const flaky: SessionStorage = {
			load: () => inner.load(),
			lock: () => inner.lock(),
			close: () => inner.close(),
			async append(entries, expected) {
				if (fail && entries.some((entry) => entry.type === "message" && (entry.message as { role: string }).role === "assistant")) {
					fail = false;
					throw new Error("EIO");
				}
				return inner.append(entries, expected);
			},
		};
		const session = await openSession(flaky);
		const agent = new Agent({ session, initialState: { model: testModel }, streamFn: scriptedStream([reply("first answer"), reply("second answer")]) });
		await agent.prompt("one");
		expect(agent.state.messages.map(textOf)).toEqual(["one", "first answer", ""]); // the run ended with an error message
		await agent.prompt("two");
		await session.close();
		const reopened = await openSession(inner.reopen());
		expect(texts((await reopened.buildContext()).messages)).toEqual(agent.state.messages.map((m) => (textOf(m) === "" ? "" : textOf(m))));
		await reopened.close();
	});

	it("reset() continues the session as a new branch; the old conversation stays in the log", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		const agent = new Agent({ session, initialState: { model: testModel }, streamFn: scriptedStream([reply("a1"), reply("b1")]) });
		await agent.prompt("first topic");
		agent.reset();
		await agent.prompt("second topic");
		expect(texts((await session.buildContext()).messages)).toEqual(["second topic", "b1"]);
		// The new branch starts at the root, with its own model_change: each branch is complete.
		const entries = await session.entries();
		const roots = entries.filter((entry) => entry.parentId === null);
		expect(roots.map((entry) => entry.type)).toEqual(["model_change", "model_change"]);
		expect(entries.filter((e) => e.type === "message").length).toBe(4);
		expect(texts((await session.buildContext(entries.find((e) => e.type === "message" && textOf(e.message) === "a1")?.id)).messages)).toEqual(["first topic", "a1"]);
		await session.close();
	});

	it("a transcript the app rewinds continues from the last message it kept, as a branch", async () => {
		const session = await openSession(createMemorySessionStorage());
		const agent = new Agent({ session, initialState: { model: testModel }, streamFn: scriptedStream([reply("answer A"), reply("answer B")]) });
		await agent.prompt("question");
		agent.state.messages = agent.state.messages.slice(0, 1); // drop the answer: ask again
		await agent.continue();
		expect(texts((await session.buildContext()).messages)).toEqual(["question", "answer B"]);
		const answers = (await session.entries()).filter((e): e is Extract<SessionEntry, { type: "message" }> => e.type === "message" && e.message.role === "assistant");
		expect(answers.map((e) => e.parentId)).toEqual([answers[0]?.parentId, answers[0]?.parentId]);
		await session.close();
	});

	it("custom app messages are stored and come back", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		const notice = { role: "notification", text: "saved", level: "info", timestamp: 3 } as never;
		const agent = new Agent({ session, initialState: { model: testModel }, streamFn: scriptedStream([reply("ok")]) });
		await agent.prompt([notice, { role: "user", content: "hi", timestamp: 4 }]);
		await session.close();
		const reopened = await openSession(storage.reopen());
		const resumed = new Agent({ session: reopened, initialState: { model: testModel } });
		expect(resumed.state.messages[0]).toEqual({ role: "notification", text: "saved", level: "info", timestamp: 3 });
		expect(resumed.state.messages.length).toBe(3);
		await reopened.close();
	});

	it("refuses initialState.messages when the session already holds messages", async () => {
		const session = await openSession(createMemorySessionStorage());
		await session.appendMessage({ role: "user", content: "hi", timestamp: 1 });
		expect(() => new Agent({ session, initialState: { messages: [{ role: "user", content: "other", timestamp: 1 }] } })).toThrow(/already holds 1 messages/);
		await session.close();
	});

	it("initialState.messages seed an empty session, stored with the first run", async () => {
		const session = await openSession(createMemorySessionStorage());
		const agent = new Agent({
			session,
			initialState: { model: testModel, messages: [{ role: "user", content: "earlier", timestamp: 1 }] },
			streamFn: scriptedStream([reply("ok")]),
		});
		await agent.prompt("now");
		expect(texts((await session.buildContext()).messages)).toEqual(["earlier", "now", "ok"]);
		await session.close();
	});
});
