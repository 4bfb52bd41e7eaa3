/**
 * The crash test's verdict on one session's log: what a well-formed transcript of the example's
 * conversations is, checked entry by entry. Returns the problems found (none: well-formed).
 */
import type { SessionEntry } from "@pi/agent-core";
import type { AssistantMessage, ToolResultMessage } from "@pi/ai";
import { promptJob } from "./prompt-job.js";

/** What {@link checkTranscript} found. */
export interface TranscriptCheck {
	problems: string[];
	/** Tool results that say the tool was interrupted (a worker died while it ran). */
	interruptedResults: number;
}

const SETTINGS = new Set(["model_change", "thinking_level_change", "system_prompt_change"]);

/**
 * Checks the log of `sessionId` against the example's script, `turns` turns of the run `runId`:
 * - one chain: every entry's parent is the entry before it, and no id repeats;
 * - each turn's prompt exactly once, with its idempotency key, turns in order;
 * - each turn is: the prompt; an assistant message calling `add` and `multiply`; exactly one
 *   result for each of those calls; an assistant message calling `add`; its one result; a final
 *   assistant message (stopReason `stop`). Only settings entries may stand between them.
 */
export function checkTranscript(entries: readonly SessionEntry[], sessionId: string, runId: string, turns: number): TranscriptCheck {
	const problems: string[] = [];
	let interruptedResults = 0;
	const seen = new Set<string>();
	entries.forEach((entry, index) => {
		if (seen.has(entry.id)) problems.push(`entry ${entry.id} appears twice`);
		seen.add(entry.id);
		const expectedParent = index === 0 ? null : entries[index - 1]?.id;
		if (entry.parentId !== expectedParent) problems.push(`entry ${index} (${entry.id}) hangs under ${entry.parentId}, not under the entry before it (${expectedParent}): the log forked`);
	});
	const messages = entries.filter((entry) => {
		if (entry.type === "message") return true;
		if (!SETTINGS.has(entry.type)) problems.push(`unexpected ${entry.type} entry ${entry.id}`);
		return false;
	}) as Extract<SessionEntry, { type: "message" }>[];

	const prompts = messages.filter((entry) => entry.message.role === "user");
	const expectedKeys = Array.from({ length: turns }, (_, index) => promptJob(runId, sessionId, index + 1, turns).idempotencyKey);
	const keys = prompts.map((entry) => entry.idempotencyKey ?? "(no key)");
	if (JSON.stringify(keys) !== JSON.stringify(expectedKeys)) problems.push(`prompts ${JSON.stringify(keys)}, expected ${JSON.stringify(expectedKeys)}`);

	let cursor = 0;
	const next = () => messages[cursor++]?.message;
	for (let turn = 1; turn <= turns && problems.length === 0; turn++) {
		const where = `turn ${turn}`;
		const prompt = next();
		if (prompt?.role !== "user") {
			problems.push(`${where}: expected the prompt, found ${prompt?.role ?? "the end"}`);
			break;
		}
		const rounds: string[][] = [[`call_${turn}_1`, `call_${turn}_2`], [`call_${turn}_3`]];
		for (const callIds of rounds) {
			const assistant = next();
			if (assistant?.role !== "assistant" || (assistant as AssistantMessage).stopReason !== "toolUse") {
				problems.push(`${where}: expected an assistant message calling ${callIds.join(", ")}, found ${describe(assistant)}`);
				break;
			}
			const calls = (assistant as AssistantMessage).content.filter((block) => block.type === "toolCall").map((block) => block.id);
			if (JSON.stringify(calls) !== JSON.stringify(callIds)) problems.push(`${where}: tool calls ${calls.join(", ")}, expected ${callIds.join(", ")}`);
			const answered = new Map<string, number>();
			for (let n = 0; n < callIds.length; n++) {
				const result = next();
				if (result?.role !== "toolResult") {
					problems.push(`${where}: expected a result for each of ${callIds.join(", ")}, found ${describe(result)}`);
					break;
				}
				const toolResult = result as ToolResultMessage;
				answered.set(toolResult.toolCallId, (answered.get(toolResult.toolCallId) ?? 0) + 1);
				if (toolResult.isError && /interrupt/i.test(JSON.stringify(toolResult.content))) interruptedResults++;
			}
			for (const id of callIds) if (answered.get(id) !== 1) problems.push(`${where}: tool call ${id} has ${answered.get(id) ?? 0} results, expected exactly 1`);
		}
		const final = next();
		if (final?.role !== "assistant" || (final as AssistantMessage).stopReason !== "stop") problems.push(`${where}: expected the final answer, found ${describe(final)}`);
	}
	if (problems.length === 0 && cursor !== messages.length) problems.push(`${messages.length - cursor} messages after the last turn`);
	return { problems: problems.map((problem) => `session ${sessionId}: ${problem}`), interruptedResults };
}

function describe(message: unknown): string {
	if (!message) return "the end of the log";
	const m = message as { role: string; stopReason?: string };
	return m.stopReason ? `${m.role} (${m.stopReason})` : m.role;
}
