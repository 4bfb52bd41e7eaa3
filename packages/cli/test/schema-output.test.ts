import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "@pi/ai/testing";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { runCli, type TempHome, tempHome } from "./helpers/run-cli.js";

/** `--schema FILE.json`: the request carries the schema, standard output gets the validated object. */

let server: ReplayServer;
let home: TempHome;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());
beforeEach(() => {
	server.reset();
	home = tempHome();
});
afterEach(() => home.remove());

const BOOK_SCHEMA = {
	type: "object",
	properties: {
		title: { type: "string" },
		author: { type: "object", properties: { first_name: { type: "string" }, last_name: { type: "string" } }, required: ["first_name", "last_name"] },
		rating: { type: "integer" },
	},
	required: ["title", "author", "rating"],
};
const BOOK = { title: "THE NAME OF THE WIND", author: { first_name: "Patrick", last_name: "Rothfuss" }, rating: 7 };

function schemaFile(name: string, content: string): string {
	const path = join(home.dir, name);
	writeFileSync(path, content);
	return path;
}

it("prints the validated object on standard output, and nothing else there", async () => {
	server.enqueue(sseResponse(loadFixture("openai-responses", "structured-output")));
	const file = schemaFile("book.json", JSON.stringify(BOOK_SCHEMA));
	const result = await runCli(["--schema", file, "-m", "openai/gpt-4o-mini", "--base-url", `${server.url}/v1`, "--no-session", "Recommend a book"], {
		env: home.env({ OPENAI_API_KEY: "sk-test-key" }),
	});
	expect(result.stderr).toContain('"title":"THE NAME OF THE WIND"'); // the raw reply, streamed
	expect(result.code).toBe(0);
	expect(JSON.parse(result.stdout)).toEqual(BOOK);
	expect(result.stdout).toBe(`${JSON.stringify(BOOK, null, 2)}\n`);
	const format = (server.requests[0]?.json as { text: { format: { name: string; strict: boolean } } }).text.format;
	expect(format).toMatchObject({ type: "json_schema", name: "book", strict: true });
});

it("a reply that does not match: exit 1, the path named on standard error, nothing on standard output", async () => {
	const bytes = loadFixture("openai-responses", "structured-output").toString("utf8").split('"delta":"7"').join('"delta":"\\"7\\""');
	server.enqueue(sseResponse(bytes));
	const file = schemaFile("book.json", JSON.stringify(BOOK_SCHEMA));
	const result = await runCli(["--schema", file, "-m", "openai/gpt-4o-mini", "--base-url", `${server.url}/v1`, "--no-session", "Recommend a book"], {
		env: home.env({ OPENAI_API_KEY: "sk-test-key" }),
	});
	expect(result.code).toBe(1);
	expect(result.stdout).toBe("");
	expect(result.stderr).toContain('The reply does not match output schema "book": /rating: expected integer');
});

it("a schema file that is not JSON is a usage error naming the file, before any request", async () => {
	const file = schemaFile("broken.json", "{ type: object");
	const result = await runCli(["--schema", file, "-m", "openai/gpt-4o-mini", "--base-url", `${server.url}/v1`, "--no-session", "Hi"], {
		env: home.env({ OPENAI_API_KEY: "sk-test-key" }),
	});
	expect(result.code).toBe(2);
	expect(result.stderr).toContain(`--schema ${file}: not JSON`);
	expect(server.requests).toHaveLength(0);
});
