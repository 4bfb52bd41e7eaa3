/**
 * `compact()` never refuses while something can be summarised. Generated transcripts whose
 * message sizes vary by orders of magnitude (10 characters to 200,000), with huge tool results
 * and parallel calls, are cut and compacted again and again, and checked against a brute-force
 * oracle of which cuts are safe (no tool call separated from its result):
 *
 * - `findCutPoint` returns 0 only when the messages after the last summary fit the budget or no
 *   safe cut leaves something to summarise and something to keep;
 * - otherwise its cut is safe, keeps at least one message and summarises at least one; when it
 *   keeps less than the budget, no older safe cut exists (it is the one that keeps the most);
 * - `compact()` resolves exactly when such a cut exists, and the compacted transcript keeps every
 *   tool result with its call.
 */
import { fauxAssistantMessage } from "@pi/ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AgentMessage, CompactionError, compact, createCompactionSummaryMessage, estimateMessageTokens, findCutPoint } from "../../src/index.js";
import { scriptedStream, testModel } from "../helpers/scripted-stream.js";
import { assistant, call, chars, result, summary, user } from "./messages.js";

/** A size from 10 to 200,000 characters, spread evenly over the orders of magnitude. */
const size = fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 20 })).map(([order, factor]) => Math.min(200_000, factor * 10 ** order));

interface StepPlan {
	text: number;
	/** Result sizes of the step's calls (none: a plain reply). */
	calls: number[];
}
interface TurnPlan {
	user: number;
	steps: StepPlan[];
}

const stepPlan: fc.Arbitrary<StepPlan> = fc.record({ text: size, calls: fc.array(size, { maxLength: 3 }) });
const turnPlan: fc.Arbitrary<TurnPlan> = fc.record({ user: size, steps: fc.array(stepPlan, { minLength: 1, maxLength: 4 }) });

let callNumber = 0;
function buildTurns(turns: readonly TurnPlan[]): AgentMessage[] {
	const messages: AgentMessage[] = [];
	for (const turn of turns) {
		messages.push(user(chars(turn.user)));
		for (const step of turn.steps) {
			if (step.calls.length === 0) {
				messages.push(assistant(chars(step.text)));
				continue;
			}
			const ids = step.calls.map(() => `call_${++callNumber}`);
			messages.push(assistant([{ type: "text", text: chars(Math.min(step.text, 2_000)) }, ...ids.map((id) => call(id))]));
			step.calls.forEach((resultSize, index) => messages.push(result(ids[index] as string, chars(resultSize))));
		}
	}
	return messages;
}

function roleOf(message: AgentMessage | undefined): string | undefined {
	return (message as { role?: string } | undefined)?.role;
}

function startAfterSummary(messages: readonly AgentMessage[]): number {
	for (let index = messages.length - 1; index >= 0; index--) if (roleOf(messages[index]) === "compactionSummary") return index + 1;
	return 0;
}

/** The index of the call a result answers: the newest assistant message before it, after the summary, with that call id. */
function callIndexOf(messages: readonly AgentMessage[], resultIndex: number, start: number): number {
	const id = (messages[resultIndex] as { toolCallId: string }).toolCallId;
	for (let index = resultIndex - 1; index >= start; index--) {
		const message = messages[index] as AgentMessage;
		if (message.role === "assistant" && message.content.some((block) => block.type === "toolCall" && block.id === id)) return index;
	}
	return -1;
}

/** The oracle: the cut before `cut` keeps no result without its call (and so no call without its result). */
function isSafe(messages: readonly AgentMessage[], cut: number, start: number): boolean {
	if (roleOf(messages[cut]) === "toolResult") return false;
	for (let index = cut; index < messages.length; index++) {
		if (roleOf(messages[index]) !== "toolResult") continue;
		const callIndex = callIndexOf(messages, index, start);
		if (callIndex >= 0 && callIndex < cut) return false;
	}
	return true;
}

function tokensFrom(messages: readonly AgentMessage[], from: number): number {
	let total = 0;
	for (let index = from; index < messages.length; index++) total += estimateMessageTokens(messages[index] as AgentMessage);
	return total;
}

/** Checks one cut against the oracle; returns whether a cut had to be found. */
function checkCut(messages: readonly AgentMessage[], keep: number): boolean {
	const start = startAfterSummary(messages);
	const safeCuts: number[] = [];
	for (let cut = start + 1; cut < messages.length; cut++) if (isSafe(messages, cut, start)) safeCuts.push(cut);
	const mustCut = tokensFrom(messages, start) >= keep && safeCuts.length > 0;
	const cut = findCutPoint(messages, keep);
	if (!mustCut) {
		expect(cut.firstKeptIndex).toBe(0);
		return false;
	}
	expect(cut.firstKeptIndex, "a cut exists, so it must be found").toBeGreaterThan(start);
	expect(cut.firstKeptIndex).toBeLessThan(messages.length);
	expect(isSafe(messages, cut.firstKeptIndex, start), `cut ${cut.firstKeptIndex} separates a call from its result`).toBe(true);
	if (tokensFrom(messages, cut.firstKeptIndex) < keep) {
		// It keeps less than the budget only when no older safe cut exists.
		expect(cut.firstKeptIndex).toBe(safeCuts[0]);
	}
	if (cut.splitTurn) {
		expect(cut.turnStartIndex).toBeGreaterThanOrEqual(start);
		expect(cut.turnStartIndex).toBeLessThan(cut.firstKeptIndex);
		expect(roleOf(messages[cut.turnStartIndex])).toBe("user");
	}
	return true;
}

describe("compaction never refuses while something can be summarised", () => {
	it("cuts after one large message right after the summary (a huge user message, small ones after it)", async () => {
		const small = () => [user(chars(400)), assistant(chars(400))];
		const messages: AgentMessage[] = [summary("Earlier work."), user(chars(400_000)), assistant(chars(400)), ...small(), ...small(), ...small()];
		// The transcript is some 100,000 tokens, many times the budget of 2,000; the old cut finder found nothing.
		const cut = findCutPoint(messages, 2_000);
		expect(cut).toEqual({ firstKeptIndex: 2, turnStartIndex: 1, splitTurn: true });
		const streamFn = scriptedStream([fauxAssistantMessage("## Goal\nThe large file.")]);
		const outcome = await compact(messages, { model: testModel, streamFn, keepRecentTokens: 2_000 });
		expect(outcome.firstKeptIndex).toBe(2);
	});

	it("summarises a call and its huge result right after the summary, and never keeps the result without its call", () => {
		const messages: AgentMessage[] = [
			summary("Earlier work."),
			assistant([call("read")]),
			result("read", chars(800_000)),
			assistant(chars(400)),
			user(chars(400)),
			assistant(chars(400)),
		];
		expect(findCutPoint(messages, 5_000)).toEqual({ firstKeptIndex: 3, turnStartIndex: 3, splitTurn: false });
		// Parallel calls with huge results: a first cut keeps the budget (before the call); the
		// next one, with only the call and its results after the summary, goes after the last result.
		const parallel: AgentMessage[] = [summary("s"), user("read both"), assistant([call("a"), call("b")]), result("a", chars(400_000)), result("b", chars(400_000)), assistant(chars(40))];
		expect(findCutPoint(parallel, 1_000)).toEqual({ firstKeptIndex: 2, turnStartIndex: 1, splitTurn: true });
		const again: AgentMessage[] = [summary("s2"), ...parallel.slice(2)];
		expect(findCutPoint(again, 1_000)).toEqual({ firstKeptIndex: 4, turnStartIndex: 4, splitTurn: false });
	});

	it("still refuses when nothing can be summarised: the transcript fits, or only one message follows the summary", async () => {
		const streamFn = scriptedStream([]);
		await expect(compact([user(chars(400)), assistant(chars(400))], { model: testModel, streamFn, keepRecentTokens: 1_000 })).rejects.toMatchObject({ kind: "nothing-to-compact", message: /fit keepRecentTokens/ });
		const lone = compact([summary("s"), user(chars(400_000))], { model: testModel, streamFn, keepRecentTokens: 1_000 });
		await expect(lone).rejects.toBeInstanceOf(CompactionError);
		await expect(lone).rejects.toThrow(/no cut after the last summary/);
		// A call and its results, nothing after: cutting would keep a result without its call.
		expect(findCutPoint([summary("s"), assistant([call("x")]), result("x", chars(400_000))], 10).firstKeptIndex).toBe(0);
	});

	it("property: every generated transcript is cut safely, and refused only when no cut can summarise", () => {
		fc.assert(
			fc.property(fc.array(turnPlan, { minLength: 1, maxLength: 6 }), fc.boolean(), fc.integer({ min: 1, max: 5 }), (turns, summaryFirst, order) => {
				const keep = 2 * 10 ** order;
				const body = buildTurns(turns);
				const messages = summaryFirst ? [summary("Earlier."), ...body.slice(1)] : body;
				checkCut(messages, keep);
			}),
			{ numRuns: 300 },
		);
	});

	it("property: repeated compactions of a growing transcript never refuse while a cut exists", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(fc.array(turnPlan, { minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 6 }), fc.integer({ min: 2, max: 4 }), async (rounds, order) => {
				const keep = 2 * 10 ** order;
				let transcript: AgentMessage[] = [];
				for (const [round, turns] of rounds.entries()) {
					transcript = [...transcript, ...buildTurns(turns)];
					const mustCut = checkCut(transcript, keep);
					const streamFn = scriptedStream([fauxAssistantMessage(`## Goal\nRound ${round}.`)]);
					const outcome = await compact(transcript, { model: testModel, streamFn, keepRecentTokens: keep }).catch((error: unknown) => error);
					if (!mustCut) {
						expect(outcome).toMatchObject({ kind: "nothing-to-compact" });
						continue;
					}
					if (outcome instanceof Error) throw outcome;
					const { summary: text, firstKeptIndex, tokensBefore } = outcome as { summary: string; firstKeptIndex: number; tokensBefore: number };
					transcript = [createCompactionSummaryMessage(text, tokensBefore), ...transcript.slice(firstKeptIndex)];
					// Every kept result has its call in the kept part.
					for (const [index, message] of transcript.entries()) {
						if (message.role === "toolResult") expect(callIndexOf(transcript, index, 1), `round ${round}: ${message.toolCallId}`).toBeGreaterThanOrEqual(1);
					}
				}
			}),
			{ numRuns: 60 },
		);
	});
});
