import { type TestPostgres, startPostgres } from "@pi/session-postgres/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCrashTest } from "../workers/crash-run.js";
import { createTestNetwork, networkNamespacesUnavailable, type TestNetwork } from "../workers/network-namespaces.js";

/**
 * The crash test on two simulated machines: PostgreSQL in a network namespace of its own, two
 * workers in each of two machine namespaces, reaching it over veth links. Always starts its own
 * server (PI_TEST_POSTGRES_URL cannot be moved into a namespace). Needs root; fails, saying so,
 * where it cannot make namespaces.
 */
let network: TestNetwork | undefined;
let server: TestPostgres | undefined;
beforeAll(async () => {
	const reason = await networkNamespacesUnavailable();
	if (reason) throw new Error(`The crash test across network namespaces cannot run here: ${reason}. docs/scaling.md says what it checks.`);
	network = await createTestNetwork(2);
	server = await startPostgres({
		commandPrefix: ["ip", "netns", "exec", network.db],
		listenAddresses: ["127.0.0.1", ...network.dbAddresses],
		trustNetworks: [network.clientNetwork],
	});
}, 120_000);
afterAll(async () => {
	await server?.stop();
	await network?.teardown();
});

describe("agents on workers on two simulated machines, over veth links", () => {
	it("complete every job with well-formed transcripts and nothing lost, every worker connection coming over a link", async () => {
		const net = network as TestNetwork;
		const db = server as TestPostgres;
		const machineOf = (index: number) => net.machines[index % 2] as TestNetwork["machines"][number];
		const report = await runCrashTest({
			// The test itself sits outside the namespaces: it reaches the server by its Unix socket.
			connectionString: `postgres://postgres@/postgres?host=${encodeURIComponent(db.socketDir)}&port=${db.port}`,
			workerConnectionString: (index) => `postgres://postgres@${machineOf(index).dbAddress}:${db.port}/postgres`,
			workerCommandPrefix: (index) => ["ip", "netns", "exec", machineOf(index).namespace],
			workers: 4,
			sessions: 100,
			turns: 3,
			kills: 8,
			crashInToolSessions: 5,
			timeoutMs: 420_000,
		});
		expect(report.problems).toEqual([]);
		expect(report.jobs.byState).toEqual({ completed: 300 });
		// Sessions 0–4 crash their worker inside `multiply` of turn 2 (unless a random kill got that
		// turn first): each such crash leaves at least one interrupted result behind.
		expect(report.selfKillsInTool).toBeGreaterThanOrEqual(1);
		expect(report.selfKillsInTool).toBeLessThanOrEqual(5);
		expect(report.interruptedResults).toBeGreaterThanOrEqual(report.selfKillsInTool);
		expect(report.unexpectedExits).toBe(0);
		expect(report.lost).toBe(0);
		// Both machines talked to the server, and only over their links.
		expect(report.clientAddresses).toEqual(net.machines.map((machine) => machine.address).sort());
	}, 480_000);
});
