import { statSync } from "node:fs";
import { basename, join } from "node:path";
import { loadFixture, sseResponse } from "@pi/ai/testing";
import { describe, expect, it } from "vitest";
import { messagesOf, readSessionFile, sessionFiles } from "./helpers/session-file.js";
import { runCli } from "./helpers/run-cli.js";
import { useCliTestContext } from "./helpers/cli-test-context.js";

const cli = useCliTestContext();

const TEXT = loadFixture("openai-completions", "text-basic"); // "The capital of the UK is London."
const base = () => ["--base-url", `${cli.server.url}/v1`, "-m", "local-llm"];

/** The chat messages a request sent, as role: text. */
function sent(index: number): string[] {
	const body = cli.server.requests[index]?.json as { messages: { role: string; content: unknown }[] };
	return body.messages.map((message) => `${message.role}: ${typeof message.content === "string" ? message.content : JSON.stringify(message.content)}`);
}

describe("every prompt is kept in a session file under XDG_DATA_HOME", () => {
	it("writes the header, the settings, the prompt and the reply, in the pinned format, mode 600", async () => {
		cli.server.enqueue(sseResponse(TEXT));
		const result = await runCli([...base(), "-s", "Be brief.", "Capital of the UK?"], { env: cli.home.env() });
		expect(result.code).toBe(0);
		const files = sessionFiles(cli.home.dataHome);
		expect(files).toHaveLength(1);
		const file = files[0] as string;
		expect(statSync(file).mode & 0o777).toBe(0o600);
		const { header, entries } = readSessionFile(file);
		expect(header).toMatchObject({ type: "session", version: 1, id: basename(file, ".jsonl") });
		// The CLI's record of the whole model (base URL included), then what the agent records.
		expect(entries.map((entry) => entry.type)).toEqual(["custom", "model_change", "system_prompt_change", "message", "message"]);
		expect(entries[0]).toMatchObject({ customType: "pi-ai.model", data: { id: "local-llm", baseUrl: `${cli.server.url}/v1` }, parentId: null });
		expect(entries[1]).toMatchObject({ provider: "openai-compatible", modelId: "local-llm" });
		expect(entries[2]).toMatchObject({ systemPrompt: "Be brief." });
		// Each entry hangs under the one before it.
		for (let i = 1; i < entries.length; i++) expect(entries[i]?.parentId).toBe(entries[i - 1]?.id);
		const [user, reply] = messagesOf(file);
		expect(user).toMatchObject({ role: "user", content: [{ type: "text", text: "Capital of the UK?" }] });
		expect(reply).toMatchObject({ role: "assistant", stopReason: "stop", content: [{ type: "text", text: "The capital of the UK is London." }] });
	});

	it("--no-session keeps nothing", async () => {
		cli.server.enqueue(sseResponse(TEXT));
		const result = await runCli([...base(), "--no-session", "Hi"], { env: cli.home.env() });
		expect(result.code).toBe(0);
		expect(sessionFiles(cli.home.dataHome)).toEqual([]);
	});

	it("a prompt that fails before sending leaves no conversation behind", async () => {
		const result = await runCli(["-m", "anthropic/claude-haiku-4-5", "Hi"], { env: cli.home.env() });
		expect(result.code).toBe(2);
		expect(sessionFiles(cli.home.dataHome)).toEqual([]);
	});
});

describe("continuing", () => {
	it("-c sends the last conversation's messages and system prompt, with the model it used, and appends to the same file", async () => {
		cli.server.enqueue(sseResponse(TEXT), sseResponse(TEXT));
		await runCli(["models", "add", "local-llm", "--base-url", `${cli.server.url}/v1`], { env: cli.home.env() });
		await runCli(["-m", "local-llm", "-s", "Be brief.", "Capital of the UK?"], { env: cli.home.env() });
		// No -m, no --base-url, no -s: all three come back from the session (the model is the user's own).
		const second = await runCli(["-c", "And of France?"], { env: cli.home.env() });
		expect(second.code).toBe(0);
		expect(cli.server.requests).toHaveLength(2);
		expect((cli.server.requests[1]?.json as { model: string }).model).toBe("local-llm");
		expect(sent(1)).toEqual([
			expect.stringMatching(/^(system|developer): Be brief\.$/),
			expect.stringMatching(/^user: .*Capital of the UK\?/),
			"assistant: The capital of the UK is London.",
			expect.stringMatching(/^user: .*And of France\?/),
		]);
		const files = sessionFiles(cli.home.dataHome);
		expect(files).toHaveLength(1);
		expect(messagesOf(files[0] as string).map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
	});

	it("--session ID continues that conversation (a unique prefix is enough), --session PATH a file anywhere", async () => {
		cli.server.enqueue(sseResponse(TEXT), sseResponse(TEXT), sseResponse(TEXT), sseResponse(TEXT));
		await runCli([...base(), "first conversation"], { env: cli.home.env() });
		const firstFile = sessionFiles(cli.home.dataHome)[0] as string;
		await runCli([...base(), "second conversation"], { env: cli.home.env() });
		const id = basename(firstFile, ".jsonl");

		const byId = await runCli([...base(), "--session", id.slice(0, -1), "back to the first"], { env: cli.home.env() });
		expect(byId.code).toBe(0);
		expect(sent(2).join("\n")).toContain("first conversation");
		expect(sent(2).join("\n")).not.toContain("second conversation");
		expect(messagesOf(firstFile)).toHaveLength(4);

		const elsewhere = join(cli.home.dir, "chats", "42.jsonl");
		const byPath = await runCli([...base(), "--session", elsewhere, "a file of my own"], { env: cli.home.env() });
		expect(byPath.code).toBe(0);
		expect(messagesOf(elsewhere).map((message) => message.role)).toEqual(["user", "assistant"]);
	});

	it("refuses an unknown session id and conflicting flags", async () => {
		const unknown = await runCli([...base(), "--session", "nope", "Hi"], { env: cli.home.env() });
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toContain("no session nope");
		const nothing = await runCli(["-c", "Hi"], { env: cli.home.env() });
		expect(nothing.code).toBe(2);
		expect(nothing.stderr).toContain("no conversation to continue yet");
		const both = await runCli(["-c", "--no-session", "Hi"], { env: cli.home.env() });
		expect(both.code).toBe(2);
		expect(both.stderr).toContain("--no-session cannot be combined with -c or --session");
	});

	it("--json names the session in its result line", async () => {
		cli.server.enqueue(sseResponse(TEXT));
		const result = await runCli([...base(), "--json", "Hi"], { env: cli.home.env() });
		const last = JSON.parse(result.stdout.trimEnd().split("\n").at(-1) ?? "{}");
		expect(last.session).toBe(basename(sessionFiles(cli.home.dataHome)[0] as string, ".jsonl"));
	});
});

describe("pi-ai sessions and pi-ai show", () => {
	it("lists conversations newest first with id, date, model, cost and first line; show prints one", async () => {
		cli.server.enqueue(sseResponse(loadFixture("anthropic-messages", "text-basic")), sseResponse(TEXT));
		await runCli(["-m", "anthropic/claude-haiku-4-5", "--base-url", cli.server.url, "Hello there\nsecond line"], { env: cli.home.env({ ANTHROPIC_API_KEY: "k" }) });
		await runCli([...base(), "What is the capital of the UK?"], { env: cli.home.env() });

		const list = await runCli(["sessions"], { env: cli.home.env() });
		expect(list.code).toBe(0);
		const [header, newest, older] = list.stdout.trimEnd().split("\n");
		expect(header).toMatch(/^ID\s+DATE\s+MODEL\s+COST\s+FIRST LINE$/);
		expect(newest).toMatch(/^\d{8}-\d{6}-[0-9a-f]{4}\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+openai-compatible\/local-llm at http:\/\/127\.0\.0\.1:\d+\/v1\s+\$0\s+What is the capital of the UK\?$/);
		expect(older).toMatch(/^\d{8}-\d{6}-[0-9a-f]{4}\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+anthropic\/claude-haiku-4-5 at http:\/\/127\.0\.0\.1:\d+\s+\$0\.\d{6}\s+Hello there$/);

		const json = JSON.parse((await runCli(["sessions", "--json"], { env: cli.home.env() })).stdout);
		expect(json).toHaveLength(2);
		expect(json[1]).toMatchObject({ model: "anthropic/claude-haiku-4-5", baseUrl: cli.server.url, firstLine: "Hello there", messages: 2 });
		expect(json[1].cost).toBeGreaterThan(0);

		const show = await runCli(["show", json[0].id], { env: cli.home.env() });
		expect(show.code).toBe(0);
		expect(show.stdout).toContain(`session ${json[0].id}`);
		expect(show.stdout).toContain(`openai-compatible/local-llm at ${cli.server.url}/v1`);
		expect(show.stdout).toContain("> What is the capital of the UK?\n\nThe capital of the UK is London.\n");
		const showJson = JSON.parse((await runCli(["show", json[0].path, "--json"], { env: cli.home.env() })).stdout);
		expect(showJson.messages.map((message: { role: string }) => message.role)).toEqual(["user", "assistant"]);
		const missing = await runCli(["show", "zzz"], { env: cli.home.env() });
		expect(missing.code).toBe(2);
	});
});
