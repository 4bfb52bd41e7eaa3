/** The four modes, and PI_CASSETTE_MODE overriding the code's choice. */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { jsonResponse, readCassette, type ReplayServer, startRecorder, startReplayServer } from "../../../src/testing/index.js";
import { tempFolder } from "./harness.js";

const temp = tempFolder();
afterAll(() => temp.remove());
afterEach(() => {
	delete process.env.PI_CASSETTE_MODE;
});

async function ask(url: string, question: string): Promise<string> {
	const response = await fetch(`${url}/v1/ask`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ question }) });
	return response.text();
}

/** An upstream that answers each request with `{ "answer": "<n>" }`, n counting from 1. */
async function numberingUpstream(count: number): Promise<ReplayServer> {
	return startReplayServer({ responses: Array.from({ length: count }, (_, index) => jsonResponse(200, { answer: String(index + 1) })) });
}

const folders = (dir: string) => readdirSync(dir).sort();

describe("modes", () => {
	it("record calls the upstream every time and replaces what the cassette held", async () => {
		const cassette = join(temp.dir, "record");
		const upstream = await numberingUpstream(3);
		let recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "record" });
		expect(await ask(recorder.url, "one")).toBe('{"answer":"1"}');
		expect(await ask(recorder.url, "two")).toBe('{"answer":"2"}');
		await recorder.close();
		expect(folders(cassette)).toEqual(["001-post-v1-ask", "002-post-v1-ask"]);

		recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "record" });
		expect(await ask(recorder.url, "one")).toBe('{"answer":"3"}'); // not replayed: recorded again
		await recorder.close();
		await upstream.close();
		expect(folders(cassette)).toEqual(["001-post-v1-ask"]);
		expect(readCassette(cassette)[0]?.response.body.toString()).toBe('{"answer":"3"}');
		expect(recorder.recorded).toBe(1);
	});

	it("replay never calls the upstream", async () => {
		const cassette = join(temp.dir, "replay");
		const upstream = await numberingUpstream(1);
		let recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "record" });
		await ask(recorder.url, "one");
		await recorder.close();
		recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "replay" });
		expect(await ask(recorder.url, "one")).toBe('{"answer":"1"}');
		expect(await ask(recorder.url, "new")).toContain("cassette_mismatch");
		await recorder.close();
		await upstream.close();
		expect(upstream.requests).toHaveLength(1); // only the recording session's
	});

	it("auto (the default) replays what exists and appends what is new", async () => {
		const cassette = join(temp.dir, "auto");
		const upstream = await numberingUpstream(2);
		let recorder = await startRecorder({ upstream: upstream.url, cassette });
		expect(recorder.mode).toBe("auto");
		expect(await ask(recorder.url, "one")).toBe('{"answer":"1"}');
		await recorder.close();
		recorder = await startRecorder({ upstream: upstream.url, cassette });
		expect(await ask(recorder.url, "one")).toBe('{"answer":"1"}'); // replayed
		expect(await ask(recorder.url, "two")).toBe('{"answer":"2"}'); // recorded
		await recorder.close();
		await upstream.close();
		expect(upstream.requests).toHaveLength(2);
		expect(folders(cassette)).toEqual(["001-post-v1-ask", "002-post-v1-ask"]);
		expect(readCassette(cassette)[1]?.request.body).toEqual({ question: "two" });
	});

	it("auto without an upstream explains the missing recording", async () => {
		const recorder = await startRecorder({ cassette: join(temp.dir, "auto-no-upstream") });
		const text = await ask(recorder.url, "one");
		await recorder.close();
		expect(text).toContain("the cassette");
		expect(text).toContain('mode \\"auto\\" has no upstream to record it from');
	});

	it("passthrough forwards and writes nothing", async () => {
		const cassette = join(temp.dir, "passthrough");
		const upstream = await numberingUpstream(2);
		const recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "passthrough" });
		expect(await ask(recorder.url, "one")).toBe('{"answer":"1"}');
		expect(await ask(recorder.url, "one")).toBe('{"answer":"2"}');
		await recorder.close();
		await upstream.close();
		expect(existsSync(cassette)).toBe(false);
	});

	it("PI_CASSETTE_MODE overrides the mode in the code", async () => {
		const cassette = join(temp.dir, "env");
		const upstream = await numberingUpstream(2);
		let recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "record" });
		await ask(recorder.url, "one");
		await recorder.close();
		process.env.PI_CASSETTE_MODE = "replay";
		recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "record" });
		expect(recorder.mode).toBe("replay");
		expect(await ask(recorder.url, "one")).toBe('{"answer":"1"}');
		await recorder.close();
		await upstream.close();
		expect(upstream.requests).toHaveLength(1);
	});

	it("rejects an unknown mode, naming where it came from, and a missing upstream", async () => {
		process.env.PI_CASSETTE_MODE = "rewind";
		await expect(startRecorder({ cassette: join(temp.dir, "x") })).rejects.toThrow('PI_CASSETTE_MODE is "rewind"; expected one of record, replay, auto, passthrough');
		delete process.env.PI_CASSETTE_MODE;
		await expect(startRecorder({ cassette: join(temp.dir, "x"), mode: "record" })).rejects.toThrow('mode "record" needs an upstream URL');
		await expect(startRecorder({ cassette: join(temp.dir, "x"), upstream: "api.openai.com" })).rejects.toThrow("upstream must be an absolute http(s) URL");
	});
});
