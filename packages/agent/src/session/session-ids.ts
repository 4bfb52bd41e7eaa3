/** Ids for sessions and entries, from the Web Crypto API (in Node 20 and every browser). */

/** A new session id: a random UUID. */
export function newSessionId(): string {
	return globalThis.crypto.randomUUID();
}

/**
 * A new entry id: 12 random hex digits, short enough for readable files (pi uses 8). The
 * session retries on the rare collision with an id it already has.
 */
export function newEntryId(): string {
	return globalThis.crypto.randomUUID().replace(/-/g, "").slice(0, 12);
}
