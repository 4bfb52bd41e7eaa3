import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/** The built @pi/session-postgres (dist/, no `development` condition) loads through its exports map. */
const run = promisify(execFile);

async function evaluate(script: string): Promise<unknown> {
	const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: import.meta.dirname });
	return JSON.parse(stdout);
}

describe("published @pi/session-postgres", () => {
	it("exposes the store and the test server, and loads the driver only on first use", async () => {
		const result = await evaluate(`
			const { createRequire } = await import("node:module");
			const main = await import("@pi/session-postgres");
			const testing = await import("@pi/session-postgres/testing");
			const loaded = Object.keys(createRequire(import.meta.url).cache).some((path) => /[\\\\/]pg[\\\\/]lib[\\\\/]/.test(path));
			console.log(JSON.stringify({ main: Object.keys(main).sort(), testing: Object.keys(testing).sort(), pgLoaded: loaded }));`);
		expect(result).toMatchObject({ pgLoaded: false });
		expect((result as { main: string[] }).main).toEqual(expect.arrayContaining(["createPostgresSessionStore", "migrate", "MIGRATIONS"]));
		expect((result as { testing: string[] }).testing).toEqual(expect.arrayContaining(["startPostgres", "testPostgres", "findPostgresBinaries"]));
	});
});
