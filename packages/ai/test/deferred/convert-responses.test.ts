/**
 * The non-streaming converter of OpenAI Responses: a finished response object (what
 * `GET /v1/responses/{id}` returns, and what `response.completed` carries) gives exactly the
 * message that the stream of the same reply gives. The objects are the real recorded ones: the
 * terminal event of each capture holds the whole response, `output` included.
 */
import { describe, expect, it } from "vitest";
import { convertResponseObject } from "../../src/providers/openai-responses/convert-response.js";
import { listFixtures, type ReplayServer } from "../../src/testing/index.js";
import type { AssistantMessage } from "../../src/types.js";
import { builderFor, capturePayloads, comparable, responsesModel, streamedReply } from "./helpers.js";

const API = "openai-responses";
const OFFLINE = { url: "http://127.0.0.1:9" } as ReplayServer;
const TERMINAL = new Set(["response.completed", "response.incomplete", "response.failed"]);

const captures = listFixtures(API)
	.map((fixture) => fixture.name)
	.filter((name) => {
		const payloads = capturePayloads(API, name);
		// A stream that failed through its own `error` event says so before the terminal object does.
		return !payloads.some((payload) => payload.type === "error") && payloads.some((payload) => TERMINAL.has(payload.type) && Array.isArray(payload.response?.output));
	});

/** The message with each reasoning item's `encrypted_content` left out of its signature. */
function withoutCiphertext<T extends { content: AssistantMessage["content"] }>(message: T): T {
	for (const block of message.content) {
		if (block.type !== "thinking" || !block.thinkingSignature?.startsWith("{")) continue;
		const { encrypted_content: _ciphertext, ...item } = JSON.parse(block.thinkingSignature);
		block.thinkingSignature = JSON.stringify(item);
	}
	return message;
}

describe("convertResponseObject", () => {
	it("covers the recorded captures that end with a whole response", () => {
		expect(captures.length).toBeGreaterThanOrEqual(8);
	});

	it.each(captures)("%s: the finished object gives the streamed message", async (name) => {
		const streamed = await streamedReply(API, name);
		const terminal = capturePayloads(API, name).find((payload) => TERMINAL.has(payload.type));
		const model = responsesModel(OFFLINE);
		const builder = builderFor(model);
		convertResponseObject(builder, model, terminal?.response);
		expect(withoutCiphertext(comparable(builder.message))).toEqual(withoutCiphertext(comparable(streamed)));
		// Each serialization of a reasoning item is encrypted afresh (the recorded `output_item.done`
		// and `response.completed` of one reply hold different ciphertexts): both replay alike, and
		// the converted one must still carry its own.
		for (const [index, block] of streamed.content.entries()) {
			if (block.type !== "thinking" || !block.thinkingSignature?.includes("encrypted_content")) continue;
			const converted = builder.message.content[index];
			expect(converted?.type === "thinking" && JSON.parse(converted.thinkingSignature ?? "{}").encrypted_content).toEqual(expect.any(String));
		}
	});

	it("ends a cancelled response as an error saying so", () => {
		const model = responsesModel(OFFLINE);
		const builder = builderFor(model);
		convertResponseObject(builder, model, { id: "resp_1", status: "cancelled", output: [] });
		expect(builder.message.stopReason).toBe("error");
		expect(builder.message.errorMessage).toMatch(/cancelled/);
	});
});
