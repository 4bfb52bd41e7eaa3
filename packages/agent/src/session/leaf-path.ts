import type { Session } from "./session.js";
import type { SessionEntry } from "./session-entry.js";

/**
 * The entries from the root to the session's leaf, root first, at once: the active path is
 * always in memory (`session.getEntry` has every entry of it). For the `Agent`'s constructor,
 * which cannot await `session.path()`. Internal: not exported by the package.
 */
export function leafPath(session: Session): SessionEntry[] {
	const path: SessionEntry[] = [];
	for (let id = session.leafId; id !== null; ) {
		const entry = session.getEntry(id);
		if (!entry) throw new Error(`Session ${session.id}: entry ${id} of the active path is not in memory`);
		path.push(entry);
		id = entry.parentId;
	}
	return path.reverse();
}
