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
 * verbatim and the rest can be summarised. The cut keeps at least the budget.
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
 * Costs one pass over the messages after the last summary.
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

	const safe = safeCuts(messages, start);

	// The budget index: the newest index whose suffix holds at least keepRecentTokens.
	const budget = Math.max(0, keepRecentTokens);
	let kept = 0;
	let budgetIndex = -1;
	for (let index = count - 1; index >= minCut; index--) {
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
		if (safe[index - start]) {
			safeIndex = index;
			break;
		}
	}
	if (safeIndex < 0) return none;

	// The user message that opened this turn, if keeping from it stays within the slack.
	let keptFrom = kept;
	for (let index = budgetIndex; index >= start; index--) {
		if (index < budgetIndex) keptFrom += estimateMessageTokens(messages[index] as AgentMessage, options.api);
		if (roleOf(messages[index]) !== "user") continue;
		if (index >= minCut && safe[index - start] && keptFrom <= budget * USER_CUT_SLACK) {
			return { firstKeptIndex: index, turnStartIndex: index, splitTurn: false };
		}
		// The turn starts here: the cut splits it.
		if (index < safeIndex && roleOf(messages[safeIndex]) !== "user") return { firstKeptIndex: safeIndex, turnStartIndex: index, splitTurn: true };
		break;
	}
	return { firstKeptIndex: safeIndex, turnStartIndex: safeIndex, splitTurn: false };
}

/**
 * `safe[i - start]` is true when cutting before message `i` separates no tool call from its
 * result: no result at or after `i` answers a call before `i`, and message `i` is not a result.
 */
function safeCuts(messages: readonly AgentMessage[], start: number): boolean[] {
	const length = messages.length - start;
	// crossing[k] counts call→result spans that cover the cut before message start + k.
	const crossing = new Int32Array(length + 1);
	const callOwner = new Map<string, number>();
	for (let index = start; index < messages.length; index++) {
		const message = messages[index] as AgentMessage;
		const role = roleOf(message);
		if (role === "assistant") {
			for (const block of (message as AssistantMessage).content) if (block.type === "toolCall") callOwner.set(block.id, index);
		} else if (role === "toolResult") {
			const owner = callOwner.get((message as ToolResultMessage).toolCallId);
			if (owner !== undefined && owner < index) {
				crossing[owner + 1 - start] = (crossing[owner + 1 - start] ?? 0) + 1;
				crossing[index + 1 - start] = (crossing[index + 1 - start] ?? 0) - 1;
			}
		}
	}
	const safe = new Array<boolean>(length);
	let open = 0;
	for (let offset = 0; offset < length; offset++) {
		open += crossing[offset] ?? 0;
		safe[offset] = open === 0 && roleOf(messages[start + offset]) !== "toolResult";
	}
	return safe;
}

function roleOf(message: AgentMessage | undefined): unknown {
	return (message as { role?: unknown } | undefined)?.role;
}
