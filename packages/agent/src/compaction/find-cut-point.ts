import type { Api, AssistantMessage, ToolResultMessage } from "@pi/ai";
import type { AgentMessage } from "../types.js";
import { estimateMessageTokens } from "./estimate-tokens.js";

/** Where {@link findCutPoint} cuts a transcript. */
export interface CutPoint {
	/** Index of the first kept message. 0 means nothing can be cut: there is nothing to compact. */
	firstKeptIndex: number;
	/**
	 * For a split turn, the index of the user message that opened the turn the cut falls in:
	 * `[turnStartIndex, firstKeptIndex)` is the turn's beginning, summarised on its own. Else
	 * equal to `firstKeptIndex`.
	 */
	turnStartIndex: number;
	/** The cut falls inside a turn (the first kept message is not a user message). */
	splitTurn: boolean;
}

/** How far past the budget a cut at the turn's user message may keep: twice `keepRecentTokens`. */
const USER_CUT_SLACK = 2;

/**
 * Finds where to cut `messages` so that the newest `keepRecentTokens` (estimated) are kept
 * verbatim and the rest can be summarised. The cut keeps at least the budget when a safe cut
 * that does so still leaves something to summarise; otherwise (a large message or a huge tool
 * result right after the last summary) it is the oldest safe cut that summarises something,
 * which keeps as much as it can. It returns 0 only when the messages after the last summary fit
 * the budget, or when no safe cut leaves both something to summarise and something to keep.
 *
 * - It never separates a tool call from its result: every kept tool result has its call in the
 *   kept part, and every kept call that has a result keeps it. A kept part never starts with a
 *   tool result.
 * - It prefers a user message: it cuts at the user message that opened the turn the budget ends
 *   in, unless that keeps more than twice the budget.
 * - A turn too large to keep whole is split: the cut goes to the newest safe point inside it,
 *   and `turnStartIndex` marks the turn's beginning, which is summarised as its own part.
 * - A previous `compactionSummary` is never kept: the cut comes after it, with at least one
 *   message between them to summarise.
 *
 * Walks back from the newest message only as far as the cut (plus the turn it falls in), so its
 * cost grows with `keepRecentTokens`, not with the transcript, besides finding the last summary
 * (and, for the oldest-cut case, the turn it falls in).
 *
 * @example
 * ```ts
 * const { firstKeptIndex } = findCutPoint(agent.state.messages, 20_000);
 * if (firstKeptIndex > 0) console.log(`summarise ${firstKeptIndex} messages, keep the rest`);
 * ```
 */
export function findCutPoint(messages: readonly AgentMessage[], keepRecentTokens: number, options: { api?: Api } = {}): CutPoint {
	const none: CutPoint = { firstKeptIndex: 0, turnStartIndex: 0, splitTurn: false };
	const count = messages.length;
	let summaryIndex = -1;
	for (let index = count - 1; index >= 0; index--) {
		if (roleOf(messages[index]) === "compactionSummary") {
			summaryIndex = index;
			break;
		}
	}
	const start = summaryIndex + 1;
	// A cut needs at least one message to summarise between the last summary and itself.
	const minCut = start + 1;
	if (minCut >= count) return none;

	const safety = new SafeCuts(messages, start);

	// The budget index: the newest index whose suffix holds at least keepRecentTokens.
	const budget = Math.max(0, keepRecentTokens);
	let kept = 0;
	let budgetIndex = -1;
	for (let index = count - 1; index >= start; index--) {
		kept += estimateMessageTokens(messages[index] as AgentMessage, options.api);
		if (kept >= budget) {
			budgetIndex = index;
			break;
		}
	}
	if (budgetIndex < 0) return none; // everything after the summary fits the budget

	// The newest safe cut at or before the budget index.
	let safeIndex = -1;
	for (let index = budgetIndex; index >= minCut; index--) {
		if (safety.isSafe(index)) {
			safeIndex = index;
			break;
		}
	}
	if (safeIndex < 0) return oldestSafeCut(messages, safety, Math.max(minCut, budgetIndex + 1), start);

	// The user message that opened this turn, if keeping from it stays within the slack.
	let keptFrom = kept;
	for (let index = budgetIndex; index >= start; index--) {
		if (index < budgetIndex) keptFrom += estimateMessageTokens(messages[index] as AgentMessage, options.api);
		if (roleOf(messages[index]) !== "user") continue;
		if (index >= minCut && keptFrom <= budget * USER_CUT_SLACK && safety.isSafe(index)) {
			return { firstKeptIndex: index, turnStartIndex: index, splitTurn: false };
		}
		// The turn starts here: the cut splits it.
		if (index < safeIndex && roleOf(messages[safeIndex]) !== "user") return { firstKeptIndex: safeIndex, turnStartIndex: index, splitTurn: true };
		break;
	}
	return { firstKeptIndex: safeIndex, turnStartIndex: safeIndex, splitTurn: false };
}

/**
 * No cut keeps the budget and summarises something (the messages just after the last summary
 * are too large, or a huge tool result sits there): the oldest safe cut from `from` on, which
 * keeps as much as it can and summarises the large part. It keeps at least one message. A cut
 * inside a turn marks the turn's user message (after the summary) as its start.
 */
function oldestSafeCut(messages: readonly AgentMessage[], safety: SafeCuts, from: number, start: number): CutPoint {
	for (let index = from; index < messages.length; index++) {
		if (!safety.isSafe(index)) continue;
		if (roleOf(messages[index]) !== "user") {
			for (let earlier = index - 1; earlier >= start; earlier--) {
				if (roleOf(messages[earlier]) === "user") return { firstKeptIndex: index, turnStartIndex: earlier, splitTurn: true };
			}
		}
		return { firstKeptIndex: index, turnStartIndex: index, splitTurn: false };
	}
	return { firstKeptIndex: 0, turnStartIndex: 0, splitTurn: false };
}

/**
 * Tells which cuts separate no tool call from its result, walking back from the newest message
 * only as far as asked. The cut before message `i` is safe when message `i` is not a result and
 * every result at or after `i` has its call at or after `i` (results follow their calls, so then
 * every kept call keeps its result too). A result answers the newest call with its id before it.
 * A result with no call after the last summary (an orphan) blocks no cut.
 *
 * Cost: one step per message walked, plus, at a cut inside a call's results, a look back to that
 * call (a few messages); an orphan costs one look back to the start, once.
 */
class SafeCuts {
	/** Results at or after `next` whose call is not at or after `next` yet: id → how many. */
	private readonly open = new Map<string, number>();
	private openCount = 0;
	/** The lowest index walked so far. */
	private next: number;
	private readonly verdicts = new Map<number, boolean>();

	constructor(
		private readonly messages: readonly AgentMessage[],
		private readonly start: number,
	) {
		this.next = messages.length;
	}

	isSafe(index: number): boolean {
		while (this.next > index) {
			this.next--;
			this.step(this.next);
			this.verdicts.set(this.next, this.judge(this.next));
		}
		return this.verdicts.get(index) ?? false;
	}

	/** Takes message `index` into the walked part. */
	private step(index: number): void {
		const message = this.messages[index] as AgentMessage;
		const role = roleOf(message);
		if (role === "toolResult") {
			const id = (message as ToolResultMessage).toolCallId;
			this.open.set(id, (this.open.get(id) ?? 0) + 1);
			this.openCount++;
		} else if (role === "assistant" && this.openCount > 0) {
			for (const block of (message as AssistantMessage).content) {
				if (block.type !== "toolCall") continue;
				const pending = this.open.get(block.id);
				if (!pending) continue;
				// This call answers the results with its id after it.
				this.open.delete(block.id);
				this.openCount -= pending;
			}
		}
	}

	/** Whether the cut before `index` is safe, `index` being the lowest index walked. */
	private judge(index: number): boolean {
		if (roleOf(this.messages[index]) === "toolResult") return false;
		if (this.openCount === 0) return true;
		// Some kept result is still open: the cut is unsafe if its call comes before it.
		for (let earlier = index - 1; earlier >= this.start; earlier--) {
			const message = this.messages[earlier] as AgentMessage;
			if (roleOf(message) !== "assistant") continue;
			for (const block of (message as AssistantMessage).content) if (block.type === "toolCall" && this.open.has(block.id)) return false;
		}
		// None of them has a call: orphans, which block no cut now or later.
		this.open.clear();
		this.openCount = 0;
		return true;
	}
}

function roleOf(message: AgentMessage | undefined): unknown {
	return (message as { role?: unknown } | undefined)?.role;
}
