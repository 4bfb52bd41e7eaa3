/**
 * Matching: method, path, query and the JSON body, with key order and the listed volatile fields
 * ignored; repeats replay in recorded order; a request with no recording fails with a diff that
 * names the differing JSON paths, also as the app's errorMessage.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { jsonResponse, normaliseBody, type Recorder, startRecorder, startReplayServer } from "../../../src/testing/index.js";
import { ADAPTERS, CONTEXT, runOnce, tempFolder } from "./harness.js";

const temp = tempFolder();
afterAll(() => temp.remove());

async function post(recorder: { url: string }, path: string, body: unknown): Promise<{ status: number; text: string }> {
	const response = await fetch(`${recorder.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
	return { status: response.status, text: await response.text() };
}

/** Records `answers` for the given requests, in order, through a fresh upstream. */
async function record(name: string, exchanges: { path: string; body: unknown; answer: unknown }[], ignore?: string[]): Promise<string> {
	const cassette = join(temp.dir, name);
	const upstream = await startReplayServer({ responses: exchanges.map(({ answer }) => jsonResponse(200, answer)) });
	const recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "record", ignore });
	for (const { path, body } of exchanges) await post(recorder, path, body);
	await recorder.close();
	await upstream.close();
	return cassette;
}

describe("normaliseBody", () => {
	it("ignores key order at every depth", () => {
		expect(normaliseBody({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: 3 } })).toBe(normaliseBody({ a: { c: 3, d: [1, { x: 1, y: 2 }] }, b: 1 }));
		expect(normaliseBody({ a: [1, 2] })).not.toBe(normaliseBody({ a: [2, 1] }));
	});

	it("drops a bare name at any depth, and a path with * wildcards from the root", () => {
		const ignore = ["timestamp", "messages[*].id", "metadata.user_id"];
		const a = { timestamp: 1, messages: [{ id: "m1", text: "hi", meta: { timestamp: 5 } }], metadata: { user_id: "u1", team: "t" } };
		const b = { timestamp: 2, messages: [{ id: "m2", text: "hi", meta: { timestamp: 6 } }], metadata: { user_id: "u2", team: "t" } };
		expect(normaliseBody(a, ignore)).toBe(normaliseBody(b, ignore));
		expect(normaliseBody(a)).not.toBe(normaliseBody(b));
		expect(normaliseBody({ ...a, metadata: { user_id: "u1", team: "other" } }, ignore)).not.toBe(normaliseBody(a, ignore));
	});
});

describe("replaying a cassette", () => {
	it("matches whatever the key order, and ignores the listed volatile fields", async () => {
		const cassette = await record("key-order", [{ path: "/v1/chat", body: { model: "m", request_id: "r-1", input: { a: 1, b: 2 } }, answer: { n: 1 } }], ["request_id"]);
		const replayer = await startRecorder({ cassette, mode: "replay", ignore: ["request_id"] });
		expect(await post(replayer, "/v1/chat", { input: { b: 2, a: 1 }, request_id: "r-2", model: "m" })).toEqual({ status: 200, text: '{"n":1}' });
		await replayer.close();
	});

	it("replays the same request recorded twice in recorded order, then says they were used up", async () => {
		const same = { path: "/v1/chat", body: { q: "again" } };
		const cassette = await record("twice", [
			{ ...same, answer: { turn: 1 } },
			{ ...same, answer: { turn: 2 } },
		]);
		const replayer = await startRecorder({ cassette, mode: "replay" });
		expect((await post(replayer, same.path, same.body)).text).toBe('{"turn":1}');
		expect((await post(replayer, same.path, same.body)).text).toBe('{"turn":2}');
		const third = await post(replayer, same.path, same.body);
		await replayer.close();
		expect(third.status).toBe(404);
		expect(JSON.parse(third.text).error.message).toMatch(/All 2 recording\(s\) of POST \/v1\/chat .* were already replayed \(001-post-v1-chat, 002-post-v1-chat\)/);
	});

	it("answers an unmatched request with a diff naming the JSON paths that differ from the closest recording", async () => {
		const cassette = await record("diff", [
			{ path: "/v1/chat", body: { model: "m", messages: [{ role: "user", content: "Hi" }], max_tokens: 100 }, answer: {} },
			{ path: "/v1/other", body: { totally: "different" }, answer: {} },
		]);
		const replayer = await startRecorder({ cassette, mode: "replay" });
		const answer = await post(replayer, "/v1/chat", { model: "m", messages: [{ role: "user", content: "Hello" }], stream: true });
		await replayer.close();
		const message = JSON.parse(answer.text).error.message as string;
		expect(answer.status).toBe(404);
		expect(message).toContain(`No recorded interaction matches POST /v1/chat in ${cassette}. Closest: 001-post-v1-chat (POST /v1/chat), which differs at:`);
		expect(message).toContain('body.messages[0].content: recorded "Hi", now "Hello"');
		expect(message).toContain("body.max_tokens: recorded 100, now absent");
		expect(message).toContain("body.stream: recorded absent, now true");
		expect(replayer.cassette.mismatches).toEqual([message]);
	});

	it("gives the app an error message with the diff, without retrying", async () => {
		const adapter = ADAPTERS.find((candidate) => candidate.api === "anthropic-messages");
		if (!adapter) throw new Error("no anthropic adapter");
		const cassette = join(temp.dir, "app-diff");
		const upstream = await startReplayServer({ responses: [{ body: adapter.fixture }] });
		let recorder: Recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "record" });
		await runOnce(adapter, recorder.url, "sk-test-key-000000");
		await recorder.close();
		await upstream.close();

		recorder = await startRecorder({ cassette, mode: "replay" });
		const changed = { ...CONTEXT, messages: [{ role: "user" as const, content: "What is 4200 + 43?", timestamp: 0 }] };
		const run = await runOnce(adapter, recorder.url, "sk-test-key-000000", changed);
		await recorder.close();
		const message = JSON.parse(run.message) as { stopReason: string; errorMessage: string };
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("cassette_mismatch");
		expect(message.errorMessage).toContain('body.messages[0].content[0].text: recorded "What is 4200 + 42?", now "What is 4200 + 43?"');
		expect(recorder.requests).toHaveLength(1); // a mismatch is not retried
	});

	it("startReplayServer({ cassette }) reports mismatches and unused recordings", async () => {
		const cassette = await record("server", [
			{ path: "/a", body: { n: 1 }, answer: { a: true } },
			{ path: "/b", body: { n: 2 }, answer: { b: true } },
		]);
		const server = await startReplayServer({ cassette });
		expect(server.cassette?.interactions.map((interaction) => interaction.id)).toEqual(["001-post-a", "002-post-b"]);
		expect((await post(server, "/a", { n: 1 })).text).toBe('{"a":true}');
		expect((await post(server, "/a", { n: 3 })).status).toBe(404);
		expect(server.cassette?.unused()).toEqual(["002-post-b"]);
		expect(server.cassette?.mismatches[0]).toContain("body.n: recorded 1, now 3");
		await server.close();
	});
});
