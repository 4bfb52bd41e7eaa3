import type { AgentMessage, SessionEntry, SessionLog, SessionStorage } from "@pi/agent-core";
import type { AssistantMessage } from "@pi/ai";

export function user(text: string, timestamp = 1): AgentMessage {
	return { role: "user", content: text, timestamp };
}

export function assistant(text: string, model = "gpt-6-luna", provider = "openai"): AssistantMessage {
	return {
		role: "assistant",
		content: [{ type: "text", text }],
		api: "openai-responses",
		provider,
		model,
		usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
		stopReason: "stop",
		timestamp: 2,
	};
}

/** The text of each message, for compact assertions. */
export function texts(messages: AgentMessage[]): string[] {
	return messages.map((message) => {
		const m = message as { role: string; content?: unknown; summary?: string };
		if (m.role === "compactionSummary") return `summary:${m.summary}`;
		if (typeof m.content === "string") return m.content;
		return (m.content as { type: string; text?: string }[]).map((block) => block.text ?? `[${block.type}]`).join("");
	});
}

/** A storage whose log is given as raw entries, counting its loads: for open-time checks. Appends go to the end of `entries`. */
export function rawStorage(entries: unknown[]): SessionStorage & { loads: number; yielded: number } {
	const storage = {
		loads: 0,
		/** Entries read so far, over every load. */
		yielded: 0,
		async load(): Promise<SessionLog> {
			storage.loads++;
			return {
				id: "raw",
				repaired: false,
				entries: (async function* () {
					for (const entry of entries) {
						storage.yielded++;
						yield structuredClone(entry) as SessionEntry;
					}
				})(),
			};
		},
		async append(appended: readonly SessionEntry[]) {
			entries.push(...structuredClone(appended));
		},
		async lock() {
			return { release: async () => {} };
		},
		async close() {},
	};
	return storage;
}
