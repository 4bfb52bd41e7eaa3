import { existsSync } from "node:fs";
import { dirname } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { startPostgres, testPostgres } from "../src/testing/index.js";

const saved = process.env.PI_TEST_POSTGRES_URL;
afterEach(() => {
	if (saved === undefined) delete process.env.PI_TEST_POSTGRES_URL;
	else process.env.PI_TEST_POSTGRES_URL = saved;
});

describe("the test server", () => {
	it("starts a real PostgreSQL on a loopback port, and stop() removes it", async () => {
		const server = await startPostgres();
		try {
			expect(server.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
			const client = new pg.Client(server.url);
			await client.connect();
			const { rows } = await client.query<{ version: string }>("SELECT current_setting('server_version') AS version");
			await client.end();
			expect(rows[0]?.version).toMatch(/^\d+/);
			// The Unix socket reaches it too (that is how a test talks to a server in another network namespace).
			const viaSocket = new pg.Client({ host: server.socketDir, port: server.port, user: "postgres", database: "postgres" });
			await viaSocket.connect();
			await viaSocket.end();
		} finally {
			await server.stop();
		}
		expect(existsSync(dirname(server.socketDir))).toBe(false);
		await server.stop(); // twice is fine
	});

	it("fails, saying how to install PostgreSQL, when there is none", async () => {
		await expect(startPostgres({ binDir: "/nonexistent/postgresql/bin" })).rejects.toThrow(/No PostgreSQL server binaries .* apt-get install -y postgresql.*PI_TEST_POSTGRES_URL/s);
	});

	it("uses PI_TEST_POSTGRES_URL instead of starting a server when it is set", async () => {
		process.env.PI_TEST_POSTGRES_URL = "postgres://someone@127.0.0.1:1/elsewhere";
		const server = await testPostgres();
		expect(server).toMatchObject({ url: "postgres://someone@127.0.0.1:1/elsewhere", external: true });
		await server.stop(); // leaves a developer's own server alone
	});
});
