/**
 * Secrets never reach disk: the key headers and `key=` become `<redacted>`, and so does every
 * key value from the environment, wherever it appears (an echoing error body, a header).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, expect, it } from "vitest";
import { jsonResponse, readCassette, sseResponse, startRecorder, startReplayServer } from "../../../src/testing/index.js";
import { filesUnder, tempFolder } from "./harness.js";

const temp = tempFolder();
afterAll(() => temp.remove());
const ENV_KEY = "sk-env-SECRET-value-0123456789abcdef";
afterEach(() => {
	delete process.env.PI_SECRETS_TEST_API_KEY;
});

it("redacts the key headers, the query key and env key values in bodies and headers, and keeps chunk sizes consistent", async () => {
	process.env.PI_SECRETS_TEST_API_KEY = ENV_KEY;
	const headerKeys = {
		authorization: "Bearer sk-bearer-AUTH-header-value-1",
		"x-api-key": "sk-ant-XAPIKEY-header-value-2",
		"x-goog-api-key": "AIzaGOOG-header-value-3",
		"api-key": "azure-APIKEY-header-value-4",
	};
	const queryKey = "AIzaQUERY-key-value-5";
	const userSecret = "org-USER-listed-secret-6";
	// The upstream echoes the env key in a header and (split across chunks) in its body.
	const body = `data: {"note":"your key ${ENV_KEY} and ${userSecret}"}\n\ndata: [DONE]\n\n`;
	const upstream = await startReplayServer({ responses: [sseResponse(body, { headers: { "x-echo": ENV_KEY }, chunking: { seed: 3, maxChunkBytes: 7 } })] });
	const cassette = join(temp.dir, "secrets");
	const recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "record", secrets: [userSecret] });
	const response = await fetch(`${recorder.url}/v1/things?alt=sse&key=${queryKey}`, {
		method: "POST",
		headers: { ...headerKeys, "content-type": "application/json" },
		body: JSON.stringify({ prompt: `hello ${ENV_KEY}` }),
	});
	// The app gets the upstream's answer unchanged: redaction is for the disk only.
	expect(await response.text()).toBe(body);
	expect(response.headers.get("x-echo")).toBe(ENV_KEY);
	// The upstream got the real credentials.
	expect(upstream.requests[0]?.headers.authorization).toBe(headerKeys.authorization);
	expect(upstream.requests[0]?.path).toContain(`key=${queryKey}`);
	await recorder.close();
	await upstream.close();

	const every = [...Object.values(headerKeys), "sk-bearer-AUTH-header-value-1", queryKey, ENV_KEY, userSecret];
	const files = filesUnder(cassette);
	expect(files.length).toBeGreaterThanOrEqual(4);
	for (const file of files) for (const key of every) expect(file.text.includes(key), `${key} in ${file.path}`).toBe(false);

	const [interaction] = readCassette(cassette); // also checks that timing.json still adds up
	expect(interaction?.request.headers).toMatchObject({ authorization: "<redacted>", "x-api-key": "<redacted>", "x-goog-api-key": "<redacted>", "api-key": "<redacted>" });
	expect(interaction?.request.query).toEqual({ alt: "sse", key: "<redacted>" });
	expect(interaction?.request.body).toEqual({ prompt: "hello <redacted>" });
	expect(interaction?.response.headers["x-echo"]).toBe("<redacted>");
	expect(interaction?.response.body.toString()).toBe(`data: {"note":"your key <redacted> and <redacted>"}\n\ndata: [DONE]\n\n`);
	const sizes = interaction?.response.chunks?.map(([size]) => size) ?? [];
	expect(sizes.reduce((a, b) => a + b, 0)).toBe(interaction?.response.body.length);
	expect(readFileSync(join(cassette, interaction?.id ?? "", "request.json"), "utf8")).toContain('"authorization": "<redacted>"');
});

it("keeps keys out of the mismatch diff and of the upstream error", async () => {
	process.env.PI_SECRETS_TEST_API_KEY = ENV_KEY;
	const cassette = join(temp.dir, "secrets-errors");
	const upstream = await startReplayServer({ responses: [jsonResponse(200, { ok: true })] });
	const recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "record" });
	await (await fetch(`${recorder.url}/v1/x`, { method: "POST", body: JSON.stringify({ a: 1 }) })).text();
	await recorder.close();
	await upstream.close();

	const replayer = await startRecorder({ cassette, mode: "replay" });
	const answer = await fetch(`${replayer.url}/v1/x?key=${ENV_KEY}`, { method: "POST", headers: { "x-api-key": ENV_KEY }, body: JSON.stringify({ a: ENV_KEY }) });
	const text = await answer.text();
	await replayer.close();
	expect(answer.status).toBe(404);
	expect(text).toContain("cassette_mismatch");
	expect(text).toContain("body.a");
	expect(text).not.toContain(ENV_KEY);
	expect(replayer.cassette.mismatches.join("\n")).not.toContain(ENV_KEY);

	const gone = await startRecorder({ upstream: upstream.url, cassette: join(temp.dir, "unused"), mode: "record" });
	const failed = await fetch(`${gone.url}/v1/x?key=${ENV_KEY}`, { method: "POST", body: "{}" });
	const failure = await failed.text();
	await gone.close();
	expect(failed.status).toBe(502);
	expect(failure).not.toContain(ENV_KEY);
});
