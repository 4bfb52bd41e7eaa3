import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import { ask, capture, completionsModel, providerHeaders } from "./helpers.js";

/**
 * `compat.sendSessionAffinityHeaders`: with a `sessionId`, the session id goes out as the
 * `session_id`, `x-client-request-id` and `x-session-affinity` headers. Golden headers through
 * the replay server (transport headers left out).
 */

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

const GATEWAY = completionsModel({ id: "qwen3-coder", provider: "gateway", baseUrl: "https://llm.example/v1" });
const AFFINITY = { ...GATEWAY, compat: { sendSessionAffinityHeaders: true } };

const headers = async (model: typeof GATEWAY, options: Parameters<typeof capture>[3]) =>
	providerHeaders((await capture(server, model, ask(), { apiKey: "sk-test", ...options })).request.headers);

describe("compat.sendSessionAffinityHeaders", () => {
	it("true with a sessionId: the three session headers, after the key", async () => {
		expect(await headers(AFFINITY, { sessionId: "sess-7" })).toEqual({
			authorization: "Bearer sk-test",
			session_id: "sess-7",
			"x-client-request-id": "sess-7",
			"x-session-affinity": "sess-7",
		});
	});

	it("true: they replace model.headers of the same name, and options.headers replace them", async () => {
		const model = { ...AFFINITY, headers: { "X-Session-Affinity": "from-model", "X-Team": "a" } };
		expect(await headers(model, { sessionId: "sess-7", headers: { "X-Client-Request-Id": "req-1" } })).toEqual({
			authorization: "Bearer sk-test",
			"x-team": "a",
			session_id: "sess-7",
			"x-client-request-id": "req-1",
			"x-session-affinity": "sess-7",
		});
	});

	it("true without a sessionId: nothing to send", async () => {
		expect(await headers(AFFINITY, {})).toEqual({ authorization: "Bearer sk-test" });
	});

	it("unset: no session headers, even with a sessionId", async () => {
		expect(await headers(GATEWAY, { sessionId: "sess-7" })).toEqual({ authorization: "Bearer sk-test" });
	});
});
