/**
 * Two (or more) simulated machines on one host, for the crash test across a network: a
 * namespace for the database and one per worker machine, each machine joined to the database's
 * namespace by its own veth link. Workers then reach PostgreSQL over those links, not loopback.
 * Everything stays inside namespaces made here (addresses 10.231.<machine>.0/24, which exist
 * nowhere else), and `teardown()` deletes them. Needs root (CAP_NET_ADMIN) and `ip` (iproute2).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The namespaces made by {@link createTestNetwork}. */
export interface TestNetwork {
	/** The database's namespace: start the server inside it with `["ip", "netns", "exec", db]`. */
	db: string;
	/** The addresses the server listens on, one per link. */
	dbAddresses: string[];
	/** Per machine: its namespace and the database's address as seen from it. */
	machines: { namespace: string; address: string; dbAddress: string }[];
	/** The client network to let into the server (`pg_hba.conf`). */
	clientNetwork: string;
	/** Deletes the namespaces (and with them their links). Idempotent. */
	teardown(): Promise<void>;
}

/** The reason the host cannot make namespaces, or `undefined` when it can. */
export async function networkNamespacesUnavailable(): Promise<string | undefined> {
	if (process.getuid?.() !== 0) return "network namespaces need root (CAP_NET_ADMIN); run the test as root";
	try {
		await run("ip", ["-V"]);
	} catch {
		return "the `ip` command (iproute2) is missing: apt-get install -y iproute2";
	}
	return undefined;
}

/**
 * Makes a database namespace and `machines` machine namespaces, each linked to the database by a
 * veth pair: machine m has 10.231.m.2, the database 10.231.m.1 on that link.
 *
 * @throws Error naming the failing `ip` command (and it removes what it made).
 */
export async function createTestNetwork(machines: number): Promise<TestNetwork> {
	const reason = await networkNamespacesUnavailable();
	if (reason) throw new Error(`Cannot simulate machines with network namespaces: ${reason}`);
	// Unique per call (a crashed earlier run may have left its namespaces), and short: an
	// interface name has at most 15 characters.
	const tag = `pi${Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, "0")}`;
	const db = `${tag}-db`;
	const made: string[] = [];
	const ip = async (...args: string[]) => {
		try {
			await run("ip", args);
		} catch (error) {
			throw new Error(`ip ${args.join(" ")} failed: ${(error as { stderr?: string }).stderr ?? (error as Error).message}`);
		}
	};
	const teardown = async () => {
		for (const namespace of made.splice(0).reverse()) await run("ip", ["netns", "del", namespace]).catch(() => undefined);
	};
	try {
		await ip("netns", "add", db);
		made.push(db);
		await ip("-n", db, "link", "set", "lo", "up");
		const list: TestNetwork["machines"] = [];
		for (let m = 1; m <= machines; m++) {
			const namespace = `${tag}-m${m}`;
			await ip("netns", "add", namespace);
			made.push(namespace);
			await ip("-n", namespace, "link", "set", "lo", "up");
			// Make the pair inside the database namespace, then move one end to the machine.
			const dbEnd = `${tag}d${m}`;
			const machineEnd = `${tag}w${m}`;
			await ip("-n", db, "link", "add", dbEnd, "type", "veth", "peer", "name", machineEnd);
			await ip("-n", db, "link", "set", machineEnd, "netns", namespace);
			await ip("-n", db, "addr", "add", `10.231.${m}.1/24`, "dev", dbEnd);
			await ip("-n", namespace, "addr", "add", `10.231.${m}.2/24`, "dev", machineEnd);
			await ip("-n", db, "link", "set", dbEnd, "up");
			await ip("-n", namespace, "link", "set", machineEnd, "up");
			list.push({ namespace, address: `10.231.${m}.2`, dbAddress: `10.231.${m}.1` });
		}
		return { db, dbAddresses: list.map((machine) => machine.dbAddress), machines: list, clientNetwork: "10.231.0.0/16", teardown };
	} catch (error) {
		await teardown();
		throw error;
	}
}
