/**
 * `compat.sendSessionIdHeader`: with a `sessionId`, the Responses request carries it as the
 * `session_id` header (default) and always as `x-client-request-id`. Golden headers through
 * the replay server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import type { Model } from "../../../src/types.js";
import { captureRequest, responsesModel, TEST_KEY, userContext } from "./helpers.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(async () => {
	await server.close();
});

/** The headers the provider chose: the recorded ones minus what fetch and the HTTP seam add. */
const TRANSPORT = new Set(["host", "connection", "content-length", "content-type", "accept", "accept-encoding", "accept-language", "sec-fetch-mode", "user-agent"]);

async function headers(options: Parameters<typeof captureRequest>[2], model?: Model<"openai-responses">): Promise<Record<string, string>> {
	const { headers } = await captureRequest(server, userContext(), options, model);
	return Object.fromEntries(Object.entries(headers).filter(([name]) => !TRANSPORT.has(name)));
}

describe("compat.sendSessionIdHeader", () => {
	it("unset (default true): a sessionId goes out as session_id and x-client-request-id", async () => {
		expect(await headers({ sessionId: "sess-9" })).toEqual({
			authorization: `Bearer ${TEST_KEY}`,
			session_id: "sess-9",
			"x-client-request-id": "sess-9",
		});
	});

	it("false: no session_id; x-client-request-id still", async () => {
		const model = responsesModel(server, { compat: { sendSessionIdHeader: false } });
		expect(await headers({ sessionId: "sess-9" }, model)).toEqual({ authorization: `Bearer ${TEST_KEY}`, "x-client-request-id": "sess-9" });
	});

	it("without a sessionId there is nothing to send", async () => {
		expect(await headers({})).toEqual({ authorization: `Bearer ${TEST_KEY}` });
	});

	it("they replace model.headers of the same name, and options.headers replace them", async () => {
		const model = responsesModel(server, { headers: { Session_Id: "from-model", "X-Team": "a" } });
		expect(await headers({ sessionId: "sess-9", headers: { "X-Client-Request-Id": "req-1" } }, model)).toEqual({
			authorization: `Bearer ${TEST_KEY}`,
			"x-team": "a",
			session_id: "sess-9",
			"x-client-request-id": "req-1",
		});
	});
});
