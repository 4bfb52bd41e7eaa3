/** A corrupt cassette fails loudly, naming the file that is wrong. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CassetteError, readCassette, startRecorder, startReplayServer } from "../../../src/testing/index.js";
import { tempFolder } from "./harness.js";

const temp = tempFolder();
afterAll(() => temp.remove());

let counter = 0;
/** A cassette with one interaction made of these files. */
function cassetteWith(files: Record<string, string | undefined>): { dir: string; folder: string } {
	const dir = join(temp.dir, `c${++counter}`);
	const folder = join(dir, "001-post-v1-messages");
	mkdirSync(folder, { recursive: true });
	for (const [name, text] of Object.entries(files)) if (text !== undefined) writeFileSync(join(folder, name), text);
	return { dir, folder };
}

const REQUEST = JSON.stringify({ method: "POST", path: "/v1/messages", headers: {}, body: { a: 1 } });
const RESPONSE = JSON.stringify({ status: 200, headers: { "content-type": "text/event-stream" }, bodyFile: "response-body.sse" });

describe("a corrupt cassette", () => {
	it("reads fine when whole", () => {
		const { dir } = cassetteWith({ "request.json": REQUEST, "response.json": RESPONSE, "response-body.sse": "data: {}\n\n" });
		expect(readCassette(dir)).toHaveLength(1);
	});

	it.each([
		{ what: "request.json that is not JSON", files: { "request.json": "{ method: POST", "response.json": RESPONSE, "response-body.sse": "" }, file: "request.json", detail: /not valid JSON/ },
		{ what: "request.json without a path", files: { "request.json": '{"method":"POST"}', "response.json": RESPONSE, "response-body.sse": "" }, file: "request.json", detail: /"path" must be a string starting with "\/"/ },
		{ what: "a missing response.json", files: { "request.json": REQUEST }, file: "response.json", detail: /cannot read the file/ },
		{ what: "a bad status", files: { "request.json": REQUEST, "response.json": '{"status":999,"bodyFile":"b.sse"}' }, file: "response.json", detail: /"status" must be an integer from 100 to 599/ },
		{ what: "a missing body file", files: { "request.json": REQUEST, "response.json": RESPONSE }, file: "response-body.sse", detail: /cannot read the response body/ },
		{ what: "timing that does not add up", files: { "request.json": REQUEST, "response.json": RESPONSE, "response-body.sse": "data: {}\n\n", "timing.json": '{"chunks":[[3,0],[3,1]]}' }, file: "timing.json", detail: /the chunks add up to 6 bytes but response-body.sse has 10/ },
		{ what: "a malformed chunk", files: { "request.json": REQUEST, "response.json": RESPONSE, "response-body.sse": "ab", "timing.json": '{"chunks":[[2,-1]]}' }, file: "timing.json", detail: /chunks\[0\] must be \[bytes > 0, milliseconds ≥ 0\]/ },
	])("$what: the error names the file", ({ files, file, detail }) => {
		const { dir, folder } = cassetteWith(files);
		let error: unknown;
		try {
			readCassette(dir);
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(CassetteError);
		expect((error as CassetteError).file).toBe(join(folder, file));
		expect((error as Error).message).toContain(`Corrupt cassette file ${join(folder, file)}: `);
		expect((error as Error).message).toMatch(detail);
	});

	it("keeps the JSON parser's error as the cause", () => {
		const { dir } = cassetteWith({ "request.json": "{", "response.json": RESPONSE });
		expect(() => readCassette(dir)).toThrow(expect.objectContaining({ cause: expect.any(SyntaxError) }));
	});

	it("makes startReplayServer and a replaying recorder fail at start, naming the file; recording over it works", async () => {
		const { dir, folder } = cassetteWith({ "request.json": "not json", "response.json": RESPONSE });
		await expect(startReplayServer({ cassette: dir })).rejects.toThrow(`Corrupt cassette file ${join(folder, "request.json")}`);
		await expect(startRecorder({ cassette: dir, mode: "replay" })).rejects.toThrow(`Corrupt cassette file ${join(folder, "request.json")}`);
		const recorder = await startRecorder({ cassette: dir, mode: "record", upstream: "http://127.0.0.1:9" });
		await recorder.close();
	});

	it("a body or timing file found corrupt while serving: the request fails with the file named, not retried", async () => {
		const { dir, folder } = cassetteWith({ "request.json": REQUEST, "response.json": RESPONSE });
		const server = await startReplayServer({ cassette: dir }); // bodies are read when first served
		const response = await fetch(`${server.url}/v1/messages`, { method: "POST", body: JSON.stringify({ a: 1 }) });
		const text = await response.text();
		await server.close();
		expect(response.status).toBe(422);
		expect(JSON.parse(text).error.message).toContain(`Corrupt cassette file ${join(folder, "response-body.sse")}: cannot read the response body`);
		expect(server.cassette?.mismatches).toHaveLength(1);
	});
});
