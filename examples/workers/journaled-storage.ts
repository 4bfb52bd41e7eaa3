/**
 * A storage wrapper for the crash test: once an append is committed, it writes the ids of the
 * appended entries to a journal file, synchronously, before the run goes on. A SIGKILL cannot
 * lose a line written so (it is in the kernel's page cache), so at the end every id in the
 * journals must be in the database: nothing persisted was lost.
 */
import { appendFileSync } from "node:fs";
import type { SessionStorage } from "@pi/agent-core";

/** `storage`, journaling each committed entry as `<session id> <entry id>` lines to `journalPath`. */
export function journaled(storage: SessionStorage, sessionId: string, journalPath: string): SessionStorage {
	return {
		load: () => storage.load(),
		lock: () => storage.lock(),
		close: () => storage.close(),
		async append(entries, expectedLastId) {
			await storage.append(entries, expectedLastId);
			appendFileSync(journalPath, entries.map((entry) => `${sessionId} ${entry.id}\n`).join(""));
		},
	};
}
