/** `openSessionFile`: a session over a JSONL file, the embedded default. */
import { type OpenSessionOptions, openSession, type Session } from "../session/session.js";
import { createJsonlSessionStorage, type SessionDurability } from "./jsonl-storage.js";

/** Options of {@link openSessionFile}. */
export interface OpenSessionFileOptions extends OpenSessionOptions {
	/** `flush` (default) survives a process crash; `fsync` also a power loss. */
	durability?: SessionDurability;
}

/**
 * Opens the session file at `path`: creates it (and its folder) when missing, or streams it,
 * repairs a torn last line (`session.repaired`), and takes its lock. Rejects with
 * `SessionCorruptError` (naming line and byte offset) for corruption anywhere else, and with
 * `SessionLockedError` (naming the process) when another live process holds it.
 *
 * @example
 * ```ts
 * import { openSessionFile } from "@pi/agent-core/node";
 * const session = await openSessionFile("chats/42.jsonl");
 * await session.appendMessage({ role: "user", content: "Hello", timestamp: Date.now() });
 * await session.close();
 * ```
 */
export function openSessionFile(path: string, options: OpenSessionFileOptions = {}): Promise<Session> {
	return openSession(createJsonlSessionStorage(path, { durability: options.durability }), { lock: options.lock });
}
