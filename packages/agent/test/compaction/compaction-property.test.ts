/**
 * Property: compaction keeps a transcript sendable. Generated sessions (parallel tool calls,
 * tool results with images, thinking with and without signatures, aborted and failed replies,
 * custom messages) are compacted up to 30 times in a row by `compact` (the summary from a
 * scripted model), growing between compactions. After each one:
 *
 * - no kept tool result lacks its call, and no kept call that had a result lacks it;
 * - the compacted transcript, through the default `convertToLlm`, passes each of the four
 *   providers' real request builders, and the body passes that API's rules (the same checkers
 *   as @pi/ai's cross-provider property tests, from `@pi/ai/testing`);
 * - the summary message comes first, and the previous summary was carried into the prompt.
 */
import type { AssistantMessage, Context, ImageContent, ToolCall, ToolResultMessage } from "@pi/ai";
import { fauxAssistantMessage } from "@pi/ai";
import { captureRequestBody, REQUEST_RULE_TARGETS } from "@pi/ai/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AgentMessage, compact, createCompactionSummaryMessage, defaultConvertToLlm } from "../../src/index.js";
import { scriptedStream, testModel } from "../helpers/scripted-stream.js";
import { png } from "./images.js";

const PIXEL: ImageContent = png(640, 480);

// ---------------------------------------------------------------------------------------------
// Generated sessions
// ---------------------------------------------------------------------------------------------

const SOURCES = [
	{ api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5-20250929" },
	{ api: "openai-responses", provider: "openai", model: "gpt-4o" },
	{ api: "google-generative-ai", provider: "google", model: "gemini-2.5-flash" },
	{ api: "faux", provider: "faux", model: "faux-1" },
] as const;

interface StepPlan {
	source: number;
	thinking: "none" | "plain" | "signed";
	text: string;
	calls: number;
	resultImages: boolean[];
	resultSize: number;
	outcome: "ok" | "aborted" | "error";
}

interface TurnPlan {
	userText: string;
	userImage: boolean;
	steps: StepPlan[];
	notification: boolean;
}

const words = fc.lorem({ maxCount: 12 });
const step: fc.Arbitrary<StepPlan> = fc.record({
	source: fc.integer({ min: 0, max: SOURCES.length - 1 }),
	thinking: fc.constantFrom("none", "plain", "signed"),
	text: fc.oneof(words, fc.constant("")),
	calls: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0, max: 1 }) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 4 }) }),
	resultImages: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
	resultSize: fc.integer({ min: 10, max: 3_000 }),
	outcome: fc.oneof({ weight: 8, arbitrary: fc.constant("ok" as const) }, { weight: 1, arbitrary: fc.constantFrom("aborted" as const, "error" as const) }),
});
const turn: fc.Arbitrary<TurnPlan> = fc.record({
	userText: words.map((text) => `${text}.`),
	userImage: fc.boolean(),
	steps: fc.array(step, { minLength: 1, maxLength: 5 }),
	notification: fc.boolean(),
});

/** Builds messages from plans; ids and timestamps keep counting across calls. */
class SessionBuilder {
	private calls = 0;
	private clock = 1_000;

	turns(plans: TurnPlan[]): AgentMessage[] {
		const messages: AgentMessage[] = [];
		for (const plan of plans) this.turn(plan, messages);
		return messages;
	}

	private turn(plan: TurnPlan, out: AgentMessage[]): void {
		out.push({ role: "user", content: plan.userImage ? [{ type: "text", text: plan.userText }, PIXEL] : plan.userText, timestamp: this.clock++ });
		for (const step of plan.steps) {
			const source = SOURCES[step.source] ?? SOURCES[0];
			const content: AssistantMessage["content"] = [];
			if (step.thinking !== "none") content.push({ type: "thinking", thinking: "Considering the next step.", ...(step.thinking === "signed" ? { thinkingSignature: "EqQBCkYIBxgCKkD3sig" } : {}) });
			if (step.text) content.push({ type: "text", text: step.text });
			const calls: ToolCall[] = [];
			for (let index = 0; index < step.calls; index++) {
				const n = this.calls++;
				const id = n % 2 === 0 ? `toolu_${String(n).padStart(6, "0")}` : `call_${n}|fc_${n}`;
				calls.push({ type: "toolCall", id, name: index % 2 === 0 ? "read_file" : "screenshot", arguments: { path: `src/file${n}.ts` } });
			}
			content.push(...calls);
			if (content.length === 0) content.push({ type: "text", text: "Done." });
			const stopReason = step.outcome === "ok" ? (calls.length > 0 ? "toolUse" : "stop") : step.outcome;
			out.push({
				role: "assistant",
				content,
				api: source.api,
				provider: source.provider,
				model: source.model,
				usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
				stopReason,
				...(step.outcome !== "ok" ? { errorMessage: step.outcome === "error" ? "500 upstream failed" : "Request was aborted." } : {}),
				timestamp: this.clock++,
			});
			if (step.outcome !== "ok") break; // a failed or aborted reply ends the turn: its calls never ran
			for (const [index, call] of calls.entries()) {
				const result: ToolResultMessage = {
					role: "toolResult",
					toolCallId: call.id,
					toolName: call.name,
					content: [{ type: "text", text: `contents of ${call.arguments.path}: ${"x".repeat(step.resultSize)}` }, ...(step.resultImages[index] ? [PIXEL] : [])],
					isError: false,
					timestamp: this.clock++,
				};
				out.push(result);
			}
		}
		if (plan.notification) out.push({ role: "notification", text: "saved", timestamp: this.clock++ } as unknown as AgentMessage);
	}
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

/** Every (call, result) pair of `before` is kept whole or dropped whole, and every kept result has its call. */
function expectPairsIntact(before: readonly AgentMessage[], after: readonly AgentMessage[]): void {
	const kept = new Set(after);
	const callsKept = new Set<string>();
	for (const message of after) {
		if (message.role === "assistant") for (const block of message.content) if (block.type === "toolCall") callsKept.add(block.id);
		if (message.role === "toolResult") expect(callsKept.has(message.toolCallId), `kept result ${message.toolCallId} lacks its call`).toBe(true);
	}
	const owner = new Map<string, AssistantMessage>();
	for (const message of before) {
		if (message.role === "assistant") for (const block of message.content) if (block.type === "toolCall") owner.set(block.id, message);
		if (message.role === "toolResult") {
			const call = owner.get(message.toolCallId) as AssistantMessage;
			expect(kept.has(call), `call ${message.toolCallId} and its result are split`).toBe(kept.has(message));
		}
	}
}

async function expectSendable(messages: AgentMessage[]): Promise<void> {
	const context: Context = {
		systemPrompt: "You are a coding assistant.",
		messages: defaultConvertToLlm(messages),
		tools: [
			{ name: "read_file", description: "Reads a file", parameters: { type: "object", properties: { path: { type: "string" } } } as never },
			{ name: "screenshot", description: "Takes a screenshot", parameters: { type: "object", properties: { path: { type: "string" } } } as never },
		],
	};
	for (const target of REQUEST_RULE_TARGETS) {
		const body = await captureRequestBody(target.model, context);
		try {
			target.check(body);
		} catch (error) {
			throw new Error(`${target.name}: ${(error as Error).message}`);
		}
	}
}

describe("compaction keeps every transcript sendable, over up to 30 compactions in a row", () => {
	it("pairs stay whole and every provider's request builder accepts the context after each compaction", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(turn, { minLength: 2, maxLength: 6 }),
				fc.array(fc.array(turn, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 30, size: "max" }),
				fc.integer({ min: 50, max: 2_500 }),
				async (start, growth, keepRecentTokens) => {
					const builder = new SessionBuilder();
					let transcript = builder.turns(start);
					let previousSummary: string | undefined;
					let compactions = 0;
					for (const [round, more] of growth.entries()) {
						transcript = [...transcript, ...builder.turns(more)];
						const streamFn = scriptedStream([fauxAssistantMessage(`## Goal\nRound ${round}.`)]);
						const outcome = await compact(transcript, { model: testModel, streamFn, keepRecentTokens }).catch((error: { kind?: string }) => {
							if (error.kind === "nothing-to-compact") return undefined;
							throw error;
						});
						if (!outcome) continue;
						compactions++;
						const prompt = JSON.stringify(streamFn.contexts[0]?.messages);
						if (previousSummary) expect(prompt).toContain(JSON.stringify(previousSummary).slice(1, -1));
						const compacted: AgentMessage[] = [createCompactionSummaryMessage(outcome.summary, outcome.tokensBefore), ...transcript.slice(outcome.firstKeptIndex)];
						expectPairsIntact(transcript, compacted);
						expect(compacted.filter((message) => message.role === "compactionSummary")).toHaveLength(1);
						expect(compacted[1]?.role).not.toBe("toolResult");
						await expectSendable(compacted);
						previousSummary = outcome.summary;
						transcript = compacted;
					}
					// A compaction that found something to cut shortened the transcript.
					if (compactions > 0) expect(transcript[0]?.role).toBe("compactionSummary");
				},
			),
			{ numRuns: 25 },
		);
	}, 180_000);

	it("exactly 30 compactions in a row when each round adds more than the budget", async () => {
		const bigTurn = turn.map((plan) => ({ ...plan, userText: `${plan.userText} ${"word ".repeat(400)}` }));
		await fc.assert(
			fc.asyncProperty(fc.array(turn, { minLength: 1, maxLength: 4 }), fc.array(bigTurn, { minLength: 30, maxLength: 30 }), async (start, growth) => {
				const builder = new SessionBuilder();
				let transcript = builder.turns(start);
				let compactions = 0;
				for (const [round, more] of growth.entries()) {
					transcript = [...transcript, ...builder.turns([more])];
					const streamFn = scriptedStream([fauxAssistantMessage(`## Goal\nRound ${round}.`)]);
					const outcome = await compact(transcript, { model: testModel, streamFn, keepRecentTokens: 300 });
					const compacted: AgentMessage[] = [createCompactionSummaryMessage(outcome.summary, outcome.tokensBefore), ...transcript.slice(outcome.firstKeptIndex)];
					expectPairsIntact(transcript, compacted);
					await expectSendable(compacted);
					if (round > 0) expect(JSON.stringify(streamFn.contexts[0]?.messages)).toContain(`Round ${round - 1}.`);
					transcript = compacted;
					compactions++;
				}
				expect(compactions).toBe(30);
			}),
			{ numRuns: 8 },
		);
	}, 120_000);

	it("the uncompacted generated sessions are sendable too (the generator makes valid transcripts)", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(turn, { minLength: 1, maxLength: 8 }), async (plans) => {
				await expectSendable(new SessionBuilder().turns(plans));
			}),
			{ numRuns: 40 },
		);
	}, 120_000);
});
