import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** How to get a server, said by every error that finds none. */
export const INSTALL_HINT =
	"Install PostgreSQL (Debian/Ubuntu: `apt-get update && apt-get install -y postgresql`, which brings " +
	"/usr/lib/postgresql/<version>/bin), or point the tests at a running server with " +
	"PI_TEST_POSTGRES_URL=postgres://user:password@127.0.0.1:5432/database.";

/**
 * The folder holding `initdb`, `pg_ctl` and `postgres`.
 *
 * Looks, in order, at `PI_POSTGRES_BIN`, the newest `/usr/lib/postgresql/<version>/bin` (Debian and
 * Ubuntu keep the server binaries there, off the PATH), `pg_config --bindir`, and the PATH.
 *
 * @throws Error naming the places it looked and how to install PostgreSQL.
 */
export function findPostgresBinaries(): string {
	const candidates: string[] = [];
	if (process.env.PI_POSTGRES_BIN) candidates.push(process.env.PI_POSTGRES_BIN);
	const debian = "/usr/lib/postgresql";
	if (existsSync(debian)) {
		const versions = readdirSync(debian)
			.filter((name) => /^\d+$/.test(name))
			.sort((a, b) => Number(b) - Number(a));
		candidates.push(...versions.map((version) => join(debian, version, "bin")));
	}
	const fromPgConfig = tryRun("pg_config", ["--bindir"]);
	if (fromPgConfig) candidates.push(fromPgConfig);
	for (const dir of (process.env.PATH ?? "").split(":")) if (dir) candidates.push(dir);
	const found = candidates.find((dir) => existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl")));
	if (!found) throw new Error(`No PostgreSQL server binaries (initdb, pg_ctl) found in PI_POSTGRES_BIN, ${debian}/*/bin, pg_config --bindir or the PATH. ${INSTALL_HINT}`);
	return found;
}

function tryRun(command: string, args: string[]): string | undefined {
	try {
		return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() || undefined;
	} catch {
		return undefined;
	}
}
