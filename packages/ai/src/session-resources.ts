/**
 * Session resources: cleanups that code holding per-session state (a cache, a socket, a temp
 * file) registers, and that the app runs when a session ends. Same names and semantics as
 * `@mariozechner/pi-ai`; no provider here holds such state, so only user code registers.
 */

/** Releases what a session (or, without an id, every session) holds. */
export type SessionResourceCleanup = (sessionId?: string) => void;

const cleanups = new Set<SessionResourceCleanup>();

/**
 * Registers `cleanup`; the returned function unregisters it.
 *
 * @example
 * const off = registerSessionResourceCleanup((id) => cache.delete(id));
 */
export function registerSessionResourceCleanup(cleanup: SessionResourceCleanup): () => void {
	if (typeof cleanup !== "function") throw new TypeError("registerSessionResourceCleanup: `cleanup` must be a function");
	cleanups.add(cleanup);
	return () => {
		cleanups.delete(cleanup);
	};
}

/**
 * Runs every registered cleanup for `sessionId` (all sessions when omitted). Every cleanup runs
 * even when one throws; the failures are then thrown together as one `AggregateError`.
 */
export function cleanupSessionResources(sessionId?: string): void {
	const errors: unknown[] = [];
	for (const cleanup of cleanups) {
		try {
			cleanup(sessionId);
		} catch (error) {
			errors.push(error);
		}
	}
	if (errors.length > 0) throw new AggregateError(errors, "Failed to cleanup session resources");
}
