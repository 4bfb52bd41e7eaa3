/**
 * Reading a conversation for display: a session file opened without its lock (so `pi-ai show`
 * works while another pi-ai writes it), and the text of a prompt.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { openSession, type Session } from "@pi/agent-core";
import { createJsonlSessionStorage } from "@pi/agent-core/node";
import { type Api, getModel, type Model, type UserMessage } from "@pi/ai";
import { MODEL_ENTRY_TYPE } from "./conversation.js";

/** Opens a session file for reading only. */
export function openForReading(path: string): Promise<Session> {
	return openSession(createJsonlSessionStorage(path), { lock: false });
}

/** The text of a user message's content (images as `[image]`). */
export function userText(message: UserMessage): string {
	if (typeof message.content === "string") return message.content;
	return message.content.map((block) => (block.type === "text" ? block.text : "[image]")).join(" ");
}

/**
 * The base URL of a session's last model as the CLI recorded it (`pi-ai.model` entries), when it
 * is not the catalog's own for that model: where a continued conversation would go. Read line by
 * line, parsing only the lines of that custom type.
 */
export async function recordedBaseUrl(path: string): Promise<string | undefined> {
	let last: Partial<Model<Api>> | undefined;
	const lines = createInterface({ input: createReadStream(path, { encoding: "utf8" }), crlfDelay: Infinity });
	try {
		for await (const line of lines) {
			if (!line.includes(MODEL_ENTRY_TYPE)) continue;
			try {
				const entry = JSON.parse(line) as { type?: unknown; customType?: unknown; data?: unknown };
				if (entry.type === "custom" && entry.customType === MODEL_ENTRY_TYPE && entry.data && typeof entry.data === "object") last = entry.data as Partial<Model<Api>>;
			} catch {
				// a torn or foreign line: the session reader reports those
			}
		}
	} catch {
		return undefined;
	}
	return nonCatalogBaseUrl(last);
}

/** `model.baseUrl` when it is a string and not the catalog's own for that provider and id. */
export function nonCatalogBaseUrl(model: Partial<Model<Api>> | undefined): string | undefined {
	if (!model || typeof model.baseUrl !== "string") return undefined;
	const catalog = typeof model.provider === "string" && typeof model.id === "string" ? getModel(model.provider, model.id) : undefined;
	return catalog?.baseUrl === model.baseUrl ? undefined : model.baseUrl;
}
