/** `openSessionFile`: a session over a JSONL file, the embedded default. */
import { type OpenSessionOptions, openSession, type Session } from "../session/session.js";
import { createJsonlSessionStorage, type SessionDurability } from "./jsonl-storage.js";

/** Options of {@link openSessionFile}. */
export interface OpenSessionFileOptions extends OpenSessionOptions {
	/** `flush` (default) survives a process crash; `fsync` also a power loss. */
	durability?: SessionDurability;
	/** The longest line read; a longer one rejects with `SessionCorruptError`. Default 128 MiB. */
	maxLineBytes?: number;
}

/**
 * Opens the session file at `path`: creates it (`0600`, and its folder `0700`) when missing, or
 * streams it, repairs a torn last line or a group of entries cut short (`session.repaired`), and
 * takes its lock. Rejects with `SessionCorruptError` (naming line and byte offset) for corruption
 * anywhere else, and for a file that is not a session (left unchanged), and with
 * `SessionLockedError` when another live process holds it (naming the process) or the lock path
 * is not a regular file.
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
	return openSession(createJsonlSessionStorage(path, { durability: options.durability, maxLineBytes: options.maxLineBytes }), { lock: options.lock });
}
