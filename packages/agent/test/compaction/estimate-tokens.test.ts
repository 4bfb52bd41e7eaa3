import { describe, expect, it } from "vitest";
import { type AgentMessage, estimateContextTokens, estimateMessageTokens, shouldCompact, TOOL_CALL_TOKENS } from "../../src/index.js";
import { png } from "./images.js";
import { assistant, call, chars, result, summary, tick, usage, user } from "./messages.js";

describe("estimateMessageTokens", () => {
	it("counts text, thinking and tool calls at four characters a token", () => {
		expect(estimateMessageTokens(user(chars(400)))).toBe(100);
		expect(estimateMessageTokens(assistant([{ type: "thinking", thinking: chars(40) }, { type: "text", text: chars(80) }]))).toBe(30);
		const toolCall = call("c1", "bash", { command: chars(100) });
		expect(estimateMessageTokens(assistant([toolCall]))).toBe(Math.ceil(("bash".length + JSON.stringify(toolCall.arguments).length) / 4) + TOOL_CALL_TOKENS);
	});

	it("counts a CJK character as one token: four characters a token would miss most of them", () => {
		expect(estimateMessageTokens(user("帮我算 3 + 4"))).toBe(3 + Math.ceil(" 3 + 4".length / 4));
		expect(estimateMessageTokens(user("会話は保存して再開できます"))).toBe(13);
		expect(estimateMessageTokens(user("대화를 저장합니다"))).toBe(8 + 1);
	});

	it("counts a large tool result by its text and its images by their pixels", () => {
		expect(estimateMessageTokens(result("c1", chars(400_000), "grep"))).toBe(100_000 + 1);
		const screenshot = png(1000, 1000, 500_000); // 670 KB of base64
		expect(estimateMessageTokens(result("c1", "", "screenshot", [screenshot]), "anthropic-messages")).toBe(1334 + 3);
		expect(estimateMessageTokens(user("", [screenshot]), "anthropic-messages")).toBe(1334);
	});

	it("counts a custom message by its JSON text, and the summary with its framing", () => {
		const notice = { role: "notification", text: chars(100), timestamp: 1 } as unknown as AgentMessage;
		expect(estimateMessageTokens(notice)).toBe(Math.ceil(JSON.stringify(notice).length / 4));
		expect(estimateMessageTokens(summary(chars(4000)))).toBeGreaterThan(1000);
	});
});

describe("estimateContextTokens", () => {
	it("starts from the last reported usage and estimates only the messages after it", () => {
		const messages = [user(chars(4000)), assistant("ok", { usage: usage(900, 100, 2000, 500) }), user(chars(400)), result("c0", chars(800))];
		const estimate = estimateContextTokens(messages);
		expect(estimate).toEqual({ tokens: 3500 + 100 + 200 + 3, usageTokens: 3500, trailingTokens: 303, lastUsageIndex: 1 });
	});

	it("skips error and aborted replies, and replies with no usage", () => {
		const messages = [
			user("a"),
			assistant("first", { usage: usage(1000, 50) }),
			user(chars(40)),
			assistant("", { stopReason: "error", errorMessage: "overloaded", usage: usage(99_999) }),
			assistant("partial", { stopReason: "aborted", errorMessage: "aborted", usage: usage(88_888) }),
			assistant("zero"),
		];
		const estimate = estimateContextTokens(messages);
		expect(estimate.lastUsageIndex).toBe(1);
		expect(estimate.usageTokens).toBe(1050);
	});

	it("with no usage, estimates everything, the system prompt and tools included", () => {
		const messages = [user(chars(400)), assistant(chars(400))];
		expect(estimateContextTokens(messages).tokens).toBe(200);
		const tool = { name: "bash", description: chars(96), parameters: { type: "object" } as never };
		const withExtras = estimateContextTokens(messages, { systemPrompt: chars(400), tools: [tool] });
		expect(withExtras.tokens).toBe(200 + 100 + Math.ceil((4 + 96 + JSON.stringify({ type: "object" }).length) / 4));
		expect(withExtras.lastUsageIndex).toBeUndefined();
	});

	it("ignores usage reported before the last compaction (pi issue #6464): kept replies describe the old, longer context", () => {
		// Before: a 150,000-token context. The compaction keeps the last turn, whose reply reported it.
		const keptUser = user(chars(4000));
		const keptReply = assistant(chars(400), { usage: usage(150_000, 100) });
		const compacted = [summary(chars(2000)), keptUser, keptReply];
		// Those replies are older than the summary: their usage does not count.
		(compacted[0] as { timestamp: number }).timestamp = tick();
		const estimate = estimateContextTokens(compacted);
		expect(estimate.lastUsageIndex).toBeUndefined();
		expect(estimate.tokens).toBeLessThan(2_000);
		expect(shouldCompact(estimate.tokens, { contextWindow: 128_000 }, { enabled: true })).toBe(false);

		// A reply after the compaction reports the new size, and that counts again.
		const fresh = assistant("next", { usage: usage(1_700, 10) });
		const later = estimateContextTokens([...compacted, user("more"), fresh, user(chars(40))]);
		expect(later.lastUsageIndex).toBe(4);
		expect(later.tokens).toBe(1_710 + 10);
	});

	it("usage before the summary's position never counts", () => {
		const messages = [user("a"), assistant("b", { usage: usage(90_000) }), summary("s"), user(chars(40))];
		expect(estimateContextTokens(messages).lastUsageIndex).toBeUndefined();
	});
});

describe("shouldCompact", () => {
	const model = { contextWindow: 128_000 };
	it("is true past contextWindow − reserveTokens (default reserve 16,384)", () => {
		expect(shouldCompact(128_000 - 16_384, model, { enabled: true })).toBe(false);
		expect(shouldCompact(128_000 - 16_383, model, { enabled: true })).toBe(true);
		expect(shouldCompact(100_001, model, { enabled: true, reserveTokens: 28_000 })).toBe(true);
		expect(shouldCompact(99_999, model, { enabled: true, reserveTokens: 28_000 })).toBe(false);
	});

	it("is false when disabled or when the window is unknown", () => {
		expect(shouldCompact(1_000_000, model, { enabled: false })).toBe(false);
		expect(shouldCompact(1_000_000, { contextWindow: 0 }, { enabled: true })).toBe(false);
	});
});
