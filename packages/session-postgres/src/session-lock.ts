/**
 * One driver per session: a session-scoped advisory lock held on a connection of its own. The
 * server frees the lock the moment that connection ends, however it ends (release, process
 * killed, machine gone once TCP notices), so another worker can take over with no lease to wait
 * out. While the lock is held, the session's appends run on the same connection: if the
 * connection dies, they fail instead of writing without the lock.
 */
import { hostname } from "node:os";
import type pg from "pg";
import { SessionLockedError } from "@pi/agent-core";

/** The 64-bit advisory lock key of one session in one schema, computed by the server. */
const KEY = "hashtextextended('pi-session-postgres:' || $1::text || ':' || $2::text, 0)";

/** A held session lock and the connection that holds it. */
export interface HeldSessionLock {
	/** The connection holding the lock; appends go through it while the lock is held. */
	client: pg.Client;
	/** Whether `release` ran (or the connection died). */
	readonly released: boolean;
	/** Unlocks and closes the connection. Idempotent. */
	release(): Promise<void>;
}

/**
 * Takes the advisory lock of `sessionId` on a new connection, or rejects at once.
 *
 * @throws SessionLockedError naming the holder (its process, host and backend) when another
 *   connection holds the lock.
 */
export async function acquireSessionLock(config: pg.ClientConfig, schema: string, sessionId: string): Promise<HeldSessionLock> {
	// The application name tells a blocked worker (and an operator in pg_stat_activity) who holds the lock.
	const { default: driver } = await import("pg");
	const client = new driver.Client({ ...config, application_name: `pi-session-lock pid=${process.pid} host=${hostname()}` });
	let released = false;
	// An idle connection that dies (server restart, network) must not crash the process: its
	// next append fails instead, and the lock is gone with it.
	client.on("error", () => {
		released = true;
	});
	await client.connect();
	try {
		const { rows } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${KEY}) AS locked`, [schema, sessionId]);
		if (!rows[0]?.locked) throw new SessionLockedError(`${schema}.sessions/${sessionId}`, await describeHolder(client, schema, sessionId));
	} catch (error) {
		await client.end().catch(() => undefined);
		throw error;
	}
	return {
		client,
		get released() {
			return released;
		},
		async release() {
			if (released) return;
			released = true;
			// Ending the connection frees the lock too; unlocking first makes it free at once even
			// if the close takes a while.
			await client.query(`SELECT pg_advisory_unlock(${KEY})`, [schema, sessionId]).catch(() => undefined);
			await client.end().catch(() => undefined);
		},
	};
}

async function describeHolder(client: pg.Client, schema: string, sessionId: string): Promise<{ description: string; pid?: number; hostname?: string }> {
	const { rows } = await client.query<{ pid: number; application_name: string; client_addr: string | null; backend_start: Date }>(
		`SELECT a.pid, a.application_name, host(a.client_addr) AS client_addr, a.backend_start
		 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
		 WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
		   AND ((l.classid::bigint << 32) | l.objid::bigint) = ${KEY}
		 LIMIT 1`,
		[schema, sessionId],
	);
	const holder = rows[0];
	if (!holder) return { description: "another connection (it let go just now; try again)" };
	const named = /pid=(\d+) host=(\S+)/.exec(holder.application_name);
	const who = named ? `process ${named[1]} on ${named[2]}` : `"${holder.application_name || "an unnamed client"}"`;
	const description = `${who} (server backend ${holder.pid}${holder.client_addr ? ` from ${holder.client_addr}` : ""}, connected since ${holder.backend_start.toISOString()})`;
	return named ? { description, pid: Number(named[1]), hostname: named[2] } : { description };
}
