/**
 * What the CLI says when a reply ends in an error: the provider's message, then what to do next
 * where the error shows it (a key to fix, a `/v1` to add, another wire API to pass), or, for a
 * server that was never reached, "could not reach URL (reason)".
 */
import type { AssistantMessage } from "@pi/ai";
import type { ChosenModel } from "./choose-model.js";
import { keyVariableNames } from "./key-store.js";

/** The lines to print (without the `pi-ai: ` prefix), and whether the server was never reached. */
export interface ReplyErrorLines {
	lines: string[];
	unreached: boolean;
}

/**
 * The error lines for `reply` (`undefined`: the run produced none).
 *
 * @example
 * replyErrorLines(chosen, reply).lines // ["openai/gpt-4o-mini replied with an error: HTTP 401: …", "check the key: set OPENAI_API_KEY, or run pi-ai keys set openai"]
 */
export function replyErrorLines(chosen: ChosenModel, reply: AssistantMessage | undefined): ReplyErrorLines {
	const { model, label } = chosen;
	const message = reply?.errorMessage ?? "no reply";
	// A connection that never got an answer: refused, no such host, a TLS failure.
	if (/^Network error: /.test(message) && (reply?.content.length ?? 0) === 0) {
		const reason = /\(([^()]*)\)(?: \(after \d+ retr(?:y|ies)\))?$/.exec(message)?.[1] ?? message.replace(/^Network error: /, "");
		return { lines: [`could not reach ${model.baseUrl} (${reason})`], unreached: true };
	}
	const lines = [`${label} replied with an error: ${message}`];
	const status = Number(/^HTTP (\d{3})\b/.exec(message)?.[1] ?? 0);
	const openAiStyle = model.api === "openai-completions" || model.api === "openai-responses";
	if (status === 401 || status === 403) {
		const variables = keyVariableNames(model.provider);
		lines.push(`check the key for ${model.provider}: ${variables.length > 0 ? `set ${variables.join(" or ")}, or ` : ""}run pi-ai keys set ${model.provider}`);
	}
	if (model.api === "openai-responses" && message.includes('api: "openai-completions"')) {
		lines.push("the server may speak Chat Completions: pass --api openai-completions (or save the model: pi-ai models add ID --base-url URL)");
	}
	if (status === 404 && openAiStyle && !/\/v1$/.test(model.baseUrl)) {
		lines.push(`the base URL ${model.baseUrl} does not end in /v1, as OpenAI-style servers' usually do: try --base-url ${model.baseUrl}/v1`);
	}
	return { lines, unreached: false };
}
