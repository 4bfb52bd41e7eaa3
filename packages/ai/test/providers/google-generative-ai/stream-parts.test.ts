/** How stream parts map to blocks, beyond the recorded captures: signatures, order, code, ids, usage. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertEventProtocol, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import { geminiSse, run } from "./helpers.js";

const candidate = (parts: object[], extra: object = {}) => ({ candidates: [{ content: { role: "model", parts }, index: 0, ...extra }] });

describe("google-generative-ai stream: parts to blocks", () => {
	let server: ReplayServer;
	beforeAll(async () => {
		server = await startReplayServer();
	});
	afterAll(() => server.close());
	afterEach(() => server.reset());

	async function replay(...chunks: unknown[]) {
		server.enqueue(sseResponse(geminiSse(...chunks)));
		return assertEventProtocol(await run(server)).message;
	}

	it("starts a new block when a signed part meets a block holding another signature", async () => {
		const message = await replay(
			candidate([{ text: "a", thoughtSignature: "s1" }]),
			candidate([{ text: "b" }]),
			candidate([{ text: "c", thoughtSignature: "s2" }], { finishReason: "STOP" }),
		);
		expect(message.content).toEqual([
			{ type: "text", text: "ab", textSignature: "s1" },
			{ type: "text", text: "c", textSignature: "s2" },
		]);
	});

	it("puts a signature that comes on an empty thought part onto the last thinking block", async () => {
		const message = await replay(
			candidate([{ text: "thinking...", thought: true }]),
			candidate([{ text: "", thought: true, thoughtSignature: "t-sig" }]),
			candidate([{ text: "Answer" }], { finishReason: "STOP" }),
		);
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "thinking...", thinkingSignature: "t-sig" },
			{ type: "text", text: "Answer" },
		]);
	});

	it("opens no block for a lone signature on an empty text part", async () => {
		const message = await replay(candidate([{ functionCall: { name: "f", args: {} } }]), candidate([{ text: "", thoughtSignature: "lost" }], { finishReason: "STOP" }));
		expect(message.content.map((block) => block.type)).toEqual(["toolCall"]);
	});

	it("keeps wire order: text after a function call is a new block", async () => {
		const message = await replay(
			candidate([{ text: "Let me check. " }, { functionCall: { name: "lookup", args: { q: 1 } } }]),
			candidate([{ text: "Meanwhile, " }, { text: "more." }], { finishReason: "STOP" }),
		);
		expect(message.content.map((block) => block.type)).toEqual(["text", "toolCall", "text"]);
		expect(message.content[2]).toEqual({ type: "text", text: "Meanwhile, more." });
		expect(message.stopReason).toBe("toolUse");
	});

	it("generates distinct ids for id-less calls of one name across chunks", async () => {
		const message = await replay(
			candidate([{ functionCall: { name: "f", args: { n: 1 } } }, { functionCall: { name: "f", args: { n: 2 } } }]),
			candidate([{ functionCall: { name: "f" } }], { finishReason: "STOP" }),
		);
		const calls = message.content.filter((block) => block.type === "toolCall");
		expect(calls.map((call) => call.arguments)).toEqual([{ n: 1 }, { n: 2 }, {}]);
		expect(calls.map((call) => call.id.split("_").slice(0, 2).join("_"))).toEqual(["f_1", "f_2", "f_3"]);
		expect(new Set(calls.map((call) => call.id)).size).toBe(3);
	});

	it("assembles Vertex streamed arguments of every value kind and nested paths", async () => {
		const message = await replay(
			candidate([{ functionCall: { name: "book", willContinue: true }, thoughtSignature: "sig" }]),
			candidate([
				{
					functionCall: {
						partialArgs: [
							{ jsonPath: "$.trip.city", stringValue: "Par", willContinue: true },
							{ jsonPath: "$.trip.city", stringValue: "is" },
							{ jsonPath: "$.nights", numberValue: 3 },
							{ jsonPath: "$.refundable", boolValue: false },
							{ jsonPath: "$.note", nullValue: "NULL_VALUE" },
							{ jsonPath: "$.guests[0].name", stringValue: "Ada" },
						],
						willContinue: true,
					},
				},
			]),
			candidate([{ functionCall: { partialArgs: [{ jsonPath: "$['odd key']", stringValue: "x" }] } }], { finishReason: "STOP" }),
		);
		expect(message.content).toEqual([
			{
				type: "toolCall",
				id: expect.stringMatching(/^book_1_/),
				name: "book",
				thoughtSignature: "sig",
				arguments: { trip: { city: "Paris" }, nights: 3, refundable: false, note: null, guests: [{ name: "Ada" }], "odd key": "x" },
			},
		]);
	});

	it("keeps code execution out of the text and never makes it a tool call (kept on the next text block's signature)", async () => {
		const message = await replay(
			candidate([{ executableCode: { language: "PYTHON", code: "print(1/0)" } }]),
			candidate([{ codeExecutionResult: { outcome: "OUTCOME_FAILED", output: "ZeroDivisionError" } }]),
			candidate([{ text: "It failed." }], { finishReason: "STOP" }),
		);
		expect(message.content).toEqual([
			{
				type: "text",
				text: "It failed.",
				textSignature: JSON.stringify({
					piGeminiParts: 1,
					before: [
						{ executableCode: { language: "PYTHON", code: "print(1/0)" } },
						{ codeExecutionResult: { outcome: "OUTCOME_FAILED", output: "ZeroDivisionError" } },
					],
					after: [],
				}),
			},
		]);
		expect(message.stopReason).toBe("stop");
	});

	it("counts cached tokens as cacheRead and takes usage from a usage-only chunk after the finish", async () => {
		const message = await replay(
			{ ...candidate([{ text: "Hi" }], { finishReason: "STOP" }), usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 1 } },
			{ usageMetadata: { promptTokenCount: 1000, cachedContentTokenCount: 800, candidatesTokenCount: 5, thoughtsTokenCount: 7 }, responseId: "r-2" },
		);
		expect(message.usage).toMatchObject({ input: 200, output: 12, cacheRead: 800, cacheWrite: 0, totalTokens: 1012 });
		expect(message.responseId).toBe("r-2");
		expect(message.stopReason).toBe("stop");
	});

	it("keeps an unknown finishReason raw and treats it as an error that keeps the text (CONFORMANCE: any other → error)", async () => {
		const message = await replay(candidate([{ text: "x" }], { finishReason: "SOMETHING_NEW" }));
		expect(message.stopReason).toBe("error");
		expect(message.rawStopReason).toBe("SOMETHING_NEW");
		expect(message.errorMessage).toBe(
			"Gemini stopped with finishReason SOMETHING_NEW: a reason this library does not know, so the reply may be incomplete.",
		);
		expect(message.content).toEqual([{ type: "text", text: "x" }]);
	});

	it("names MALFORMED_FUNCTION_CALL and Gemini's finishMessage in the error", async () => {
		const message = await replay(candidate([], { finishReason: "MALFORMED_FUNCTION_CALL", finishMessage: "Malformed function call: f(" }));
		expect(message.stopReason).toBe("error");
		expect(message.rawStopReason).toBe("MALFORMED_FUNCTION_CALL");
		expect(message.errorMessage).toBe(
			"Gemini stopped with finishReason MALFORMED_FUNCTION_CALL: the model produced an invalid function call (Malformed function call: f().",
		);
	});

	for (const reason of ["BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "OTHER"]) {
		it(`ends with error on finishReason ${reason}, keeping the text`, async () => {
			const message = await replay(candidate([{ text: "partial" }], { finishReason: reason }));
			expect(message.stopReason).toBe("error");
			expect(message.rawStopReason).toBe(reason);
			expect(message.errorMessage).toContain(`finishReason ${reason}`);
			expect(message.content).toEqual([{ type: "text", text: "partial" }]);
		});
	}

	it("includes blockReasonMessage when Gemini gives one", async () => {
		const message = await replay({ promptFeedback: { blockReason: "PROHIBITED_CONTENT", blockReasonMessage: "The prompt is not allowed." } });
		expect(message.stopReason).toBe("error");
		expect(message.rawStopReason).toBe("PROHIBITED_CONTENT");
		expect(message.errorMessage).toBe("Gemini blocked the prompt (promptFeedback.blockReason PROHIBITED_CONTENT): The prompt is not allowed.");
	});
});
