import { describe, expect, it } from "vitest";
import { type AgentMessage, findCutPoint } from "../../src/index.js";
import { assistant, call, chars, result, summary, user } from "./messages.js";

/** 100 tokens of text. */
const T100 = chars(400);

describe("findCutPoint", () => {
	it("keeps at least the budget and cuts at the user message that opened the turn", () => {
		// Turns of 300 tokens: user, assistant with a call, result.
		const messages: AgentMessage[] = [];
		for (let turn = 0; turn < 6; turn++) messages.push(user(T100), assistant([call(`c${turn}`, "read_file", { path: T100.slice(0, 380) })]), result(`c${turn}`, T100));
		const cut = findCutPoint(messages, 450);
		// 450 tokens end inside the second-to-last turn: cut at its user message (index 12).
		expect(cut).toEqual({ firstKeptIndex: 12, turnStartIndex: 12, splitTurn: false });
		expect(messages[cut.firstKeptIndex]?.role).toBe("user");
	});

	it("never separates a tool call from its result, with parallel calls", () => {
		const messages: AgentMessage[] = [
			user(T100),
			assistant(T100),
			user("read three files"),
			assistant([call("a"), call("b"), call("c")]),
			result("a", T100),
			result("b", T100),
			result("c", T100),
			assistant(T100),
		];
		// No user cut within twice the budget of 150: the cut must go before the call, not between results.
		for (let budget = 1; budget <= 500; budget += 7) {
			const { firstKeptIndex } = findCutPoint(messages, budget);
			if (firstKeptIndex === 0) continue;
			const kept = messages.slice(firstKeptIndex);
			const calls = new Set(kept.flatMap((m) => (m.role === "assistant" ? m.content.flatMap((b) => (b.type === "toolCall" ? [b.id] : [])) : [])));
			for (const message of kept) if (message.role === "toolResult") expect(calls.has(message.toolCallId), `budget ${budget}: ${message.toolCallId}`).toBe(true);
			expect([4, 5, 6]).not.toContain(firstKeptIndex);
		}
	});

	it("never separates a call from a result that comes after other messages (a custom message in between)", () => {
		const notice = { role: "notification", text: "running…", timestamp: 1 } as unknown as AgentMessage;
		const messages: AgentMessage[] = [user(T100), assistant(T100), user("go"), assistant([call("slow")]), notice, notice, assistant(T100), result("slow", T100), assistant(T100)];
		for (let budget = 1; budget <= 400; budget += 3) {
			const { firstKeptIndex } = findCutPoint(messages, budget);
			// Cutting at 4, 5 or 6 would keep the result without its call.
			expect([4, 5, 6, 7], `budget ${budget}`).not.toContain(firstKeptIndex);
		}
		// The newest safe cut is at the call itself (a split turn: the user message is beyond twice the budget).
		expect(findCutPoint(messages, 150)).toEqual({ firstKeptIndex: 3, turnStartIndex: 2, splitTurn: true });
	});

	it("splits a turn too large to keep whole, marking the turn's start", () => {
		// One user request, then a long tool loop of 20 steps of 200 tokens each.
		const messages: AgentMessage[] = [user(T100), assistant(T100), user("refactor the parser")];
		for (let step = 0; step < 20; step++) messages.push(assistant([call(`s${step}`, "edit", { patch: T100.slice(0, 380) })]), result(`s${step}`, T100));
		const cut = findCutPoint(messages, 500);
		expect(cut.splitTurn).toBe(true);
		expect(cut.turnStartIndex).toBe(2);
		expect(messages[cut.firstKeptIndex]?.role).toBe("assistant");
		// At least the budget is kept, and the cut is the newest safe one that does.
		expect(cut.firstKeptIndex).toBe(messages.length - 6);
	});

	it("prefers the turn's user message when it keeps at most twice the budget", () => {
		const messages: AgentMessage[] = [user(T100), assistant(T100), user("go")];
		for (let step = 0; step < 3; step++) messages.push(assistant([call(`s${step}`, "edit", { patch: T100.slice(0, 380) })]), result(`s${step}`, T100));
		// The turn is 600 tokens (+1); a budget of 350 would cut inside it, but 2 × 350 covers it whole.
		expect(findCutPoint(messages, 350)).toEqual({ firstKeptIndex: 2, turnStartIndex: 2, splitTurn: false });
	});

	it("returns 0 when everything fits the budget or nothing precedes the cut", () => {
		const messages = [user(T100), assistant(T100)];
		expect(findCutPoint(messages, 1_000).firstKeptIndex).toBe(0);
		expect(findCutPoint([], 10).firstKeptIndex).toBe(0);
		expect(findCutPoint([user(chars(40_000))], 10).firstKeptIndex).toBe(0);
	});

	it("never keeps a previous summary, and leaves something to summarise after it", () => {
		const messages: AgentMessage[] = [summary(chars(4000)), user(T100), assistant(T100), user(T100), assistant(T100)];
		const cut = findCutPoint(messages, 150);
		expect(cut.firstKeptIndex).toBe(3);
		// The summary alone before the cut is nothing to summarise.
		expect(findCutPoint([summary("s"), user(T100), assistant(T100)], 10).firstKeptIndex).toBe(2);
		expect(findCutPoint([summary("s"), user(chars(40_000))], 10).firstKeptIndex).toBe(0);
	});

	it("does not start the kept part with a tool result whose call is missing (an orphan)", () => {
		const messages: AgentMessage[] = [user(T100), assistant(T100), result("gone", T100), assistant(T100)];
		const cut = findCutPoint(messages, 150);
		expect(messages[cut.firstKeptIndex]?.role).not.toBe("toolResult");
	});
});
