/**
 * Type-level test, checked by `tsc -p tsconfig.json` (the `typecheck` script), never run.
 * `Session` is opened, never constructed: its constructor is private, and `buildContext` and
 * `path` return promises in every case (one signature).
 */
import { createMemorySessionStorage, openSession, Session, type SessionContext, type SessionEntry, type SessionEntryInput } from "@pi/agent-core";

export async function opened(): Promise<void> {
	const session: Session = await openSession(createMemorySessionStorage());
	const context: Promise<SessionContext> = session.buildContext();
	const other: Promise<SessionContext> = session.buildContext("some-entry");
	const path: Promise<SessionEntry[]> = session.path();
	await Promise.all([context, other, path]);
	// @ts-expect-error buildContext() is a promise, not a context.
	session.buildContext().messages;
}

export function constructed(): void {
	// @ts-expect-error the constructor is private: openSession() takes the lock and checks the log.
	new Session();
}

// @ts-expect-error a leaf entry is written by branch(), never appended.
export const leafInput: SessionEntryInput = { type: "leaf" };
