/** Reference runs: what a provider makes of a body when nothing goes wrong. */
import { isGeneratedToolCallId } from "../../../src/providers/google-generative-ai/tool-call-id.js";
import { sseResponse } from "../../../src/testing/index.js";
import type { AssistantMessage, AssistantMessageEvent } from "../../../src/types.js";
import type { ProviderAdapter } from "./adapters.js";
import { runCase } from "./run-case.js";
import { withServer } from "./with-server.js";

const cache = new Map<string, Promise<{ message: AssistantMessage; events: AssistantMessageEvent[] }>>();

/** The final message and events of `body` replayed whole (cached per adapter and body). */
export function referenceRun(
	adapter: ProviderAdapter,
	body: Uint8Array,
	key = "fixture",
	allowError = false,
): Promise<{ message: AssistantMessage; events: AssistantMessageEvent[] }> {
	const id = `${adapter.api}:${key}`;
	let run = cache.get(id);
	if (!run) {
		run = withServer(async (server) => {
			server.enqueue(sseResponse(body));
			const result = await runCase(adapter, server);
			if (result.message.stopReason === "aborted" || (!allowError && result.message.stopReason === "error")) {
				throw new Error(`reference run of ${id} failed: ${result.message.errorMessage}`);
			}
			return { message: result.message, events: result.events };
		});
		cache.set(id, run);
	}
	return run;
}

/**
 * Whether `partial` holds a prefix of `full`: the same blocks in the same order, each one equal
 * except that text and thinking of the last block may be cut short. A tool call that was still
 * streaming may hold fewer arguments.
 */
export function isContentPrefix(partial: AssistantMessage["content"], full: AssistantMessage["content"]): boolean {
	if (partial.length > full.length) return false;
	return partial.every((block, index) => {
		const other = full[index];
		if (!other || other.type !== block.type) return false;
		const last = index === partial.length - 1;
		if (block.type === "text" && other.type === "text") return last ? other.text.startsWith(block.text) : other.text === block.text;
		if (block.type === "thinking" && other.type === "thinking") return last ? other.thinking.startsWith(block.thinking) : other.thinking === block.thinking;
		if (block.type === "toolCall" && other.type === "toolCall") return sameToolCall(block, other);
		return false;
	});
}

/**
 * Same call: same name, and the same id unless both ids were generated for a call the wire sent
 * without one (Gemini 2.x), which are random per run.
 */
export function sameToolCall(a: { id: string; name: string }, b: { id: string; name: string }): boolean {
	if (a.name !== b.name) return false;
	return a.id === b.id || (isGeneratedToolCallId(a.id, a.name) && isGeneratedToolCallId(b.id, b.name));
}
