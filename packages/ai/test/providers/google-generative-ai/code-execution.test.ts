import { GenerateContentResponse } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getModel } from "../../../src/models.js";
import { streamGoogle } from "../../../src/providers/google-generative-ai.js";
import { buildRequest } from "../../../src/providers/google-generative-ai/build-request.js";
import { assertEventProtocol, loadFixture, type ReplayServer, recordEvents, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import { transformMessages } from "../../../src/transform-messages.js";
import type { AssistantMessage, Context } from "../../../src/types.js";
import { geminiModel, HELLO, onServer, TEST_KEY } from "./helpers.js";

/**
 * Gemini's code-execution parts (`executableCode`, `codeExecutionResult`) on the recorded
 * `code-execution` capture: out of the text (which equals the official SDK's `.text`), kept for
 * an exact replay to the same model, and left out for other models.
 */

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

const capture = loadFixture("google-generative-ai", "code-execution");

/** What @google/genai's `.text` gives for the stream: each chunk's `.text`, concatenated. */
function sdkText(bytes: Uint8Array): string {
	const payloads = new TextDecoder()
		.decode(bytes)
		.split(/\r?\n/)
		.filter((line) => line.startsWith("data: "))
		.map((line) => JSON.parse(line.slice(6)) as object);
	const warn = console.warn;
	// The SDK warns on every chunk with non-text parts; the warning is expected here.
	console.warn = () => {};
	try {
		return payloads.map((payload) => Object.assign(new GenerateContentResponse(), payload).text ?? "").join("");
	} finally {
		console.warn = warn;
	}
}

const textOf = (message: AssistantMessage) =>
	message.content.map((block) => (block.type === "text" ? block.text : "")).join("");

async function replayCapture(seed: number): Promise<AssistantMessage> {
	server.reset();
	server.enqueue(sseResponse(capture, { chunking: { seed, minChunkBytes: 1, maxChunkBytes: 97 } }));
	const recorded = await recordEvents(streamGoogle(onServer(server, geminiModel()), HELLO, { apiKey: TEST_KEY }));
	return assertEventProtocol(recorded).message;
}

const EXECUTABLE_CODE = {
	executableCode: {
		language: "PYTHON",
		code: "prime_numbers = [2, 3, 5, 7, 11]\nsum_of_primes = sum(prime_numbers)\nprint(f'The sum of the first 5 prime numbers is: {sum_of_primes}')\n",
	},
};
const CODE_EXECUTION_RESULT = { codeExecutionResult: { outcome: "OUTCOME_OK", output: "The sum of the first 5 prime numbers is: 28\n" } };

describe("Gemini code execution", () => {
	it("keeps code and output out of the text: the text is the SDK's .text, for every chunking", async () => {
		const expected = sdkText(capture);
		expect(expected).toBe(
			"To find the sum of the first 5 prime numbers, we first need to identify them. The first five prime numbers are 2, 3, 5, 7, and 11.\n\nNow, let's calculate their sum using a Python tool:\n\nThe sum of the first 5 prime numbers is 28.",
		);
		for (const seed of [1, 2, 3]) {
			const message = await replayCapture(seed);
			expect(textOf(message)).toBe(expected);
			expect(message.content.every((block) => block.type === "text")).toBe(true);
			expect(JSON.stringify(message.content.map((b) => (b.type === "text" ? b.text : "")))).not.toContain("prime_numbers = [");
		}
	});

	it("sends the code-execution parts back to the same model exactly (golden next-turn body)", async () => {
		const message = await replayCapture(1);
		const model = geminiModel();
		const context: Context = { messages: [...HELLO.messages, message, { role: "user", content: "And the first 6?", timestamp: 2 }] };
		expect(buildRequest(model, context, {}, TEST_KEY).body.contents).toEqual([
			{ role: "user", parts: [{ text: "Hello" }] },
			{
				role: "model",
				parts: [
					{
						text: "To find the sum of the first 5 prime numbers, we first need to identify them. The first five prime numbers are 2, 3, 5, 7, and 11.\n\nNow, let's calculate their sum using a Python tool:\n\n",
					},
					EXECUTABLE_CODE,
					CODE_EXECUTION_RESULT,
					{ text: "The sum of the first 5 prime numbers is 28." },
				],
			},
			{ role: "user", parts: [{ text: "And the first 6?" }] },
		]);
	});

	it("another model gets the text only", async () => {
		const message = await replayCapture(1);
		const other = getModel("google", "gemini-2.5-pro");
		const replayed = transformMessages([message], other);
		expect(replayed).toMatchObject([{ role: "assistant", content: [{ type: "text", text: message.content[0]?.type === "text" ? message.content[0].text : "" }, { type: "text", text: "The sum of the first 5 prime numbers is 28." }] }]);
		expect(JSON.stringify(replayed)).not.toContain("executableCode");
		const body = buildRequest(other, { messages: [message] }, {}, TEST_KEY).body;
		expect(JSON.stringify(body)).not.toContain("executableCode");
	});

	it("keeps each part's thoughtSignature, and parts that end the reply, on the last text block", async () => {
		server.reset();
		const chunk = (parts: object[], extra: object = {}) => `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts }, ...extra }] })}\n\n`;
		server.enqueue(
			sseResponse(
				chunk([{ text: "Running it.", thoughtSignature: "sig-text" }]) +
					chunk([{ ...EXECUTABLE_CODE, thoughtSignature: "sig-code" }]) +
					chunk([CODE_EXECUTION_RESULT], { finishReason: "STOP" }),
			),
		);
		const message = await streamGoogle(onServer(server, geminiModel()), HELLO, { apiKey: TEST_KEY }).result();
		expect(textOf(message)).toBe("Running it.");
		const parts = buildRequest(geminiModel(), { messages: [message] }, {}, TEST_KEY).body.contents[0]?.parts;
		expect(parts).toEqual([{ text: "Running it.", thoughtSignature: "sig-text" }, { ...EXECUTABLE_CODE, thoughtSignature: "sig-code" }, CODE_EXECUTION_RESULT]);
	});

	it("a reply of only code execution keeps it on an empty text block for the same model", async () => {
		server.reset();
		const chunk = (parts: object[], extra: object = {}) => `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts }, ...extra }] })}\n\n`;
		server.enqueue(sseResponse(chunk([EXECUTABLE_CODE]) + chunk([CODE_EXECUTION_RESULT], { finishReason: "STOP" })));
		const message = await streamGoogle(onServer(server, geminiModel()), HELLO, { apiKey: TEST_KEY }).result();
		expect(textOf(message)).toBe("");
		const parts = buildRequest(geminiModel(), { messages: [message] }, {}, TEST_KEY).body.contents[0]?.parts;
		expect(parts).toEqual([EXECUTABLE_CODE, CODE_EXECUTION_RESULT]);
	});
});
