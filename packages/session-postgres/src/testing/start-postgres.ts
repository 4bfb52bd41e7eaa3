import { execFile } from "node:child_process";
import { appendFileSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { findPostgresBinaries, INSTALL_HINT } from "./find-postgres.js";
import { freePort } from "./free-port.js";

const run = promisify(execFile);

/** Options of {@link startPostgres}. */
export interface StartPostgresOptions {
	/** The folder of `initdb` and `pg_ctl`. Default: found by {@link findPostgresBinaries}. */
	binDir?: string;
	/** Addresses the server listens on besides its Unix socket. Default `["127.0.0.1"]`. */
	listenAddresses?: string[];
	/** Extra client networks (CIDR) let in without a password, e.g. a veth link's `10.231.0.0/16`. Loopback always is. */
	trustNetworks?: string[];
	/** The TCP port. Default: a free one on the first listen address. */
	port?: number;
	/**
	 * A command every server command runs under, e.g. `["ip", "netns", "exec", "db"]` to start the
	 * server inside a network namespace. Default none.
	 */
	commandPrefix?: string[];
	/**
	 * Keep PostgreSQL's durability (fsync, synchronous commits), e.g. for benchmarks. Default
	 * `false`: a test server's data dies with the run, so it skips fsync.
	 */
	durable?: boolean;
	/** `max_connections`. Default 200 (workers, their pools and a job queue add up). */
	maxConnections?: number;
}

/** A running throwaway server, see {@link startPostgres}. */
export interface TestPostgres {
	/** `postgres://postgres@<first listen address>:<port>/postgres`. */
	url: string;
	/** The folder of its Unix socket: `{ host: socketDir, port }` reaches it from any network namespace. */
	socketDir: string;
	port: number;
	/** Stops the server (immediate shutdown) and deletes its folder. Safe to call twice. */
	stop(): Promise<void>;
}

/**
 * Starts a throwaway PostgreSQL server for tests: `initdb` in a new temporary folder, then
 * `pg_ctl start` on a free loopback port, with durability off (`fsync=off`, unless `durable`)
 * since the data dies with the test run. Password-less (`trust`) for loopback and the given networks only.
 *
 * PostgreSQL refuses to run as root, so when this process is root (as CI is) every server command
 * runs as the `postgres` user through `runuser`, and the temporary folder is handed to that user.
 *
 * @throws Error saying how to install PostgreSQL when no server binaries exist, or with the
 *   server's log when it would not start.
 * @example
 * const server = await startPostgres();
 * try { await useDatabase(server.url); } finally { await server.stop(); }
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<TestPostgres> {
	const bin = options.binDir ?? findPostgresBinaries();
	if (!existsSync(join(bin, "initdb")) || !existsSync(join(bin, "pg_ctl"))) throw new Error(`No PostgreSQL server binaries (initdb, pg_ctl) in ${bin}. ${INSTALL_HINT}`);
	const listen = options.listenAddresses ?? ["127.0.0.1"];
	const root = mkdtempSync(join(tmpdir(), "pi-postgres-"));
	const dataDir = join(root, "data");
	const socketDir = join(root, "socket");
	mkdirSync(socketDir);
	const asRoot = process.getuid?.() === 0;
	if (asRoot) handOver(root, await userIds("postgres"));
	const prefix = [...(options.commandPrefix ?? []), ...(asRoot ? ["runuser", "-u", "postgres", "--"] : [])];
	const exec = (command: string, args: string[]) => {
		const argv = [...prefix, join(bin, command), ...args];
		return run(argv[0] as string, argv.slice(1), { cwd: root, env: { ...process.env, LC_ALL: "C" } });
	};
	let stopped = false;
	const cleanUp = async () => {
		if (stopped) return;
		stopped = true;
		if (existsSync(join(dataDir, "postmaster.pid"))) await exec("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
		rmSync(root, { recursive: true, force: true });
	};
	try {
		await exec("initdb", ["-D", dataDir, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
		for (const network of options.trustNetworks ?? []) appendFileSync(join(dataDir, "pg_hba.conf"), `host all all ${network} trust\n`);
		// A port taken between freePort() and the server's bind is retried with another one.
		for (let attempt = 1; ; attempt++) {
			const port = options.port ?? (await freePort(listen[0] === "*" ? "127.0.0.1" : listen[0]).catch(() => freePort()));
			const settings = [
				`port = ${port}`,
				`listen_addresses = '${listen.join(",")}'`,
				`unix_socket_directories = '${socketDir}'`,
				`max_connections = ${options.maxConnections ?? 200}`,
				"shared_buffers = 32MB",
				...(options.durable ? [] : ["fsync = off", "synchronous_commit = off", "full_page_writes = off"]),
			];
			appendFileSync(join(dataDir, "postgresql.conf"), `${settings.join("\n")}\n`);
			try {
				await exec("pg_ctl", ["-D", dataDir, "-l", join(root, "server.log"), "-w", "-t", "120", "start"]);
				const host = listen[0] === "*" ? "127.0.0.1" : listen[0];
				return { url: `postgres://postgres@${host}:${port}/postgres`, socketDir, port, stop: cleanUp };
			} catch (error) {
				const log = readLog(root);
				if (attempt < 3 && options.port === undefined && /could not bind|Address already in use/.test(log)) continue;
				throw new Error(`PostgreSQL (${bin}) did not start: ${describe(error)}\n${log}`);
			}
		}
	} catch (error) {
		await cleanUp();
		if (error instanceof Error && error.message.startsWith("PostgreSQL")) throw error;
		throw new Error(`Could not start a PostgreSQL server with ${bin}: ${describe(error)}. ${INSTALL_HINT}`);
	}
}

function readLog(root: string): string {
	try {
		return readFileSync(join(root, "server.log"), "utf8").split("\n").slice(-15).join("\n");
	} catch {
		return "(no server log)";
	}
}

function describe(error: unknown): string {
	const stderr = (error as { stderr?: string }).stderr;
	return (stderr?.trim() || (error instanceof Error ? error.message : String(error))).slice(0, 2000);
}

async function userIds(name: string): Promise<{ uid: number; gid: number }> {
	try {
		const uid = Number((await run("id", ["-u", name])).stdout.trim());
		const gid = Number((await run("id", ["-g", name])).stdout.trim());
		return { uid, gid };
	} catch {
		throw new Error(`Running as root, but there is no "${name}" user to run PostgreSQL as (the server refuses root). ${INSTALL_HINT}`);
	}
}

function handOver(path: string, ids: { uid: number; gid: number }): void {
	chownSync(path, ids.uid, ids.gid);
	chownSync(join(path, "socket"), ids.uid, ids.gid);
}
