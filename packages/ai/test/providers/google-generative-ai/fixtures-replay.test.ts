/**
 * Every recorded Gemini capture, replayed through the real local server in random byte chunks
 * (several seeds each, plus one seed that splits a CRLF pair), must give the final message that
 * CONFORMANCE.md and MANIFEST.md imply and a valid event sequence, identical for every chunking.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamGoogle } from "../../../src/providers/google-generative-ai.js";
import {
	assertEventProtocol,
	listFixtures,
	loadFixture,
	type ReplayServer,
	recordEvents,
	splitIntoChunks,
	sseResponse,
	startReplayServer,
} from "../../../src/testing/index.js";
import type { AssistantMessage, StopReason } from "../../../src/types.js";
import { API, geminiModel, HELLO, onServer, TEST_KEY } from "./helpers.js";

type ExpectedBlock =
	| { type: "text"; text?: string; startsWith?: string; endsWith?: string; length?: number; signature?: [prefix: string, length: number] }
	| { type: "thinking"; startsWith: string; endsWith: string; length: number; signature?: [prefix: string, length: number] }
	| { type: "toolCall"; id?: string; name: string; arguments: Record<string, unknown>; signature?: [prefix: string, length: number] };

interface Expected {
	stopReason: StopReason;
	rawStopReason?: string;
	errorIncludes?: string[];
	responseId?: string;
	/** `modelVersion` where it differs from the requested `gemini-2.5-flash`, else `undefined` (also when absent). */
	responseModel: string | undefined;
	usage: { input: number; output: number; cacheRead: number };
	blocks: ExpectedBlock[];
}

const EXPECTED: Record<string, Expected> = {
	"text-basic": {
		stopReason: "stop",
		rawStopReason: "STOP",
		responseModel: "gemini-2.0-flash-exp",
		responseId: "w1peaMz6INOvnvgPgYfPiQY",
		// usageMetadata is cumulative: the last chunk's promptTokenCount (13) wins over the earlier 15.
		usage: { input: 13, output: 8, cacheRead: 0 },
		blocks: [{ type: "text", text: "The capital of France is Paris.\n" }],
	},
	"structured-output": {
		stopReason: "stop",
		rawStopReason: "STOP",
		responseModel: undefined,
		responseId: "wJpgafWsHsbUz7IPuJqhsAo",
		usage: { input: 11, output: 29 + 264, cacheRead: 0 },
		blocks: [{ type: "text", text: '{"title":"THE NAME OF THE WIND","author":{"first_name":"Patrick","last_name":"Rothfuss"},"rating":7}' }],
	},
	"thinking-thought-summaries": {
		stopReason: "stop",
		rawStopReason: "STOP",
		responseModel: "gemini-2.5-pro",
		responseId: "beHBaJfEMIi-qtsP3769-Q8",
		usage: { input: 34, output: 469 + 787, cacheRead: 0 },
		blocks: [
			{ type: "thinking", startsWith: "**Clarifying User Goals**\n\nI'm currently focused o", endsWith: "circumstances or locations.\n\n\n", length: 1575 },
			{
				type: "text",
				startsWith: "This is a great question! Safely crossing the street is all ",
				endsWith: "lways assume a driver might not see you.",
				length: 1938,
				// The signature came on the first answer part, not on a thought part.
				signature: ["CiIB0e2Kb6Sy", 6152],
			},
		],
	},
	"thought-summary-function-call-signature": {
		stopReason: "toolUse",
		rawStopReason: "STOP",
		responseModel: undefined,
		responseId: "48SHaPHpHKbG-8YPtZCawAk",
		usage: { input: 38, output: 6 + 168, cacheRead: 0 },
		blocks: [
			{ type: "thinking", startsWith: "**Calculating the Days**\n\nI've determined the user", endsWith: "after getting today's date.\n\n\n", length: 765 },
			{ type: "toolCall", name: "now", arguments: {}, signature: ["CiIBVKhc7vB+", 1140] },
		],
	},
	"function-call-gemini3-signature": {
		stopReason: "toolUse",
		rawStopReason: "STOP",
		responseModel: "gemini-3-pro-preview",
		responseId: "QUVVadTSNJ6_qtsPvN7J8Q0",
		usage: { input: 29, output: 10 + 202, cacheRead: 0 },
		// The empty text part of the last chunk opens no block.
		blocks: [{ type: "toolCall", name: "get_country", arguments: {}, signature: ["EpwICpkIAXLI", 1408] }],
	},
	"function-calls-parallel": {
		stopReason: "toolUse",
		rawStopReason: "STOP",
		responseModel: undefined,
		responseId: "G5nyaJuGE-yrqtsPmJHUoAs",
		usage: { input: 70, output: 40 + 61, cacheRead: 0 },
		blocks: [
			{ type: "toolCall", name: "secret_retrieval_tool", arguments: { password: "mellon" }, signature: ["CikB0e2Kbw5t", 484] },
			{ type: "toolCall", name: "secret_retrieval_tool", arguments: { password: "radiance" } },
		],
	},
	"function-calls-parallel-ids-across-chunks": {
		stopReason: "toolUse",
		rawStopReason: "STOP",
		responseModel: "gemini-3.5-flash",
		responseId: "FyIhav7bJNyw4-EP6eCsqA0",
		usage: { input: 71, output: 33 + 93, cacheRead: 0 },
		blocks: [
			{ type: "toolCall", id: "dv8szvqe", name: "get_weather", arguments: { location: "Boston" }, signature: ["EvsDCvgDAQw5", 680] },
			{ type: "toolCall", id: "j80tal12", name: "get_weather", arguments: { location: "New Delhi" } },
		],
	},
	"max-tokens": {
		stopReason: "length",
		rawStopReason: "MAX_TOKENS",
		responseModel: undefined,
		responseId: "Q5nyaIWZL_C1qtsPhY6D8A4",
		usage: { input: 9, output: 10 + 38, cacheRead: 0 },
		blocks: [{ type: "text", text: "Here are all 50 U.S." }],
	},
	"prompt-blocked-safety": {
		stopReason: "error",
		rawStopReason: "SAFETY",
		responseModel: undefined,
		errorIncludes: ["blocked the prompt", "blockReason SAFETY"],
		usage: { input: 0, output: 0, cacheRead: 0 },
		blocks: [],
	},
	"finish-reason-safety": {
		stopReason: "error",
		rawStopReason: "SAFETY",
		responseModel: undefined,
		errorIncludes: ["finishReason SAFETY", "safety filters"],
		usage: { input: 0, output: 0, cacheRead: 0 },
		blocks: [{ type: "text", text: "No" }],
	},
	recitation: {
		stopReason: "error",
		rawStopReason: "RECITATION",
		responseModel: "gemini-2.0-flash",
		errorIncludes: ["finishReason RECITATION", "reciting"],
		usage: { input: 9, output: 261, cacheRead: 0 },
		blocks: [{ type: "text", text: "text1text2text3text4text5text6text7text8" }],
	},
	"code-execution": {
		stopReason: "stop",
		rawStopReason: "STOP",
		responseModel: undefined,
		responseId: "RUy4aObyJcTujrEPqtKYKQ",
		// toolUsePromptTokenCount (the code's output fed back) counts as input.
		usage: { input: 21 + 243, output: 126 + 95, cacheRead: 0 },
		blocks: [
			{
				type: "text",
				text: "To find the sum of the first 5 prime numbers, we first need to identify them. The first five prime numbers are 2, 3, 5, 7, and 11.\n\nNow, let's calculate their sum using a Python tool:\n\n",
			},
			// The code and its output are not text: they ride on this block's signature (code-execution.test.ts).
			{ type: "text", text: "The sum of the first 5 prime numbers is 28.", signature: ['{"piGeminiParts":1,"before":[{"executableCode"', 336] },
		],
	},
	"google-search-grounding": {
		stopReason: "stop",
		rawStopReason: "STOP",
		responseModel: "gemini-2.5-pro",
		responseId: "ftnJaMmAMcm-qtsPwvCCoAo",
		usage: { input: 17 + 102, output: 241 + 412, cacheRead: 0 },
		blocks: [
			{
				type: "text",
				startsWith: "### Weather in San Francisco is Mild and Partly Cloudy Today\n\n**San Francisco, CA**",
				endsWith: "The chance of rain remains low throughout the day.",
				length: 926,
			},
		],
	},
	"vertex-stream-function-call-arguments": {
		stopReason: "toolUse",
		rawStopReason: "STOP",
		responseModel: "gemini-3.1-pro-preview",
		responseId: "dqHOab6xGLzWodAPkPuViA4",
		usage: { input: 26, output: 23 + 132, cacheRead: 0 },
		blocks: [
			{ type: "toolCall", name: "getWeather", arguments: { location: "Boston" }, signature: ["CiMBjz1rX25K", 1032] },
			{ type: "toolCall", name: "getWeather", arguments: { location: "San Francisco" } },
		],
	},
	"gemini3-text-trailing-signature": {
		stopReason: "stop",
		rawStopReason: "STOP",
		responseModel: "gemini-3-pro-preview",
		responseId: "bH6LaZW8Fp_3nsEPqtaSwQ4",
		usage: { input: 9, output: 23 + 185, cacheRead: 0 },
		// The signature arrives on an empty last text part: it lands on the text block, no new block.
		blocks: [{ type: "text", text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y', signature: ["EqsFCqgFAb4+", 916] }],
	},
};

const SEEDS = [1, 2, 3, 4, 5];
const CHUNKING = { minChunkBytes: 1, maxChunkBytes: 48, awkwardCutRate: 0.3 };

/** Whether the server's cut of `bytes` with `seed` separates a `\r` from its `\n`. */
function splitsCrlf(bytes: Uint8Array, seed: number): boolean {
	let offset = 0;
	for (const chunk of splitIntoChunks(bytes, { ...CHUNKING, seed })) {
		offset += chunk.length;
		if (offset < bytes.length && bytes[offset - 1] === 0x0d && bytes[offset] === 0x0a) return true;
	}
	return false;
}

/** The first seed above the regular ones whose chunking splits a CRLF pair. */
function crlfSplittingSeed(bytes: Uint8Array): number {
	for (let seed = 100; seed < 10_000; seed++) if (splitsCrlf(bytes, seed)) return seed;
	throw new Error("no seed splits a CRLF pair");
}

/** The message without what differs from run to run: the timestamp and generated tool-call ids. */
function comparable(message: AssistantMessage): unknown {
	const generated = /^.+_\d+_[0-9a-z]{8}$/;
	return {
		...message,
		timestamp: 0,
		content: message.content.map((block) => (block.type === "toolCall" && generated.test(block.id) ? { ...block, id: "<generated>" } : block)),
	};
}

function checkBlock(actual: AssistantMessage["content"][number] | undefined, expected: ExpectedBlock): void {
	expect(actual?.type).toBe(expected.type);
	if (!actual) return;
	if (expected.type === "toolCall" && actual.type === "toolCall") {
		expect(actual.name).toBe(expected.name);
		expect(actual.arguments).toEqual(expected.arguments);
		if (expected.id) expect(actual.id).toBe(expected.id);
		else expect(actual.id).toMatch(new RegExp(`^${expected.name}_\\d+_[0-9a-z]{8}$`));
		if (expected.signature) {
			expect(actual.thoughtSignature?.startsWith(expected.signature[0])).toBe(true);
			expect(actual.thoughtSignature).toHaveLength(expected.signature[1]);
		} else {
			expect(actual.thoughtSignature).toBeUndefined();
		}
		return;
	}
	const text = actual.type === "text" ? actual.text : actual.type === "thinking" ? actual.thinking : "";
	const signature = actual.type === "text" ? actual.textSignature : actual.type === "thinking" ? actual.thinkingSignature : undefined;
	if (expected.type === "text" && expected.text !== undefined) expect(text).toBe(expected.text);
	if (expected.type !== "toolCall") {
		if (expected.startsWith !== undefined) expect(text.startsWith(expected.startsWith)).toBe(true);
		if (expected.endsWith !== undefined) expect(text.endsWith(expected.endsWith)).toBe(true);
		if (expected.length !== undefined) expect(text).toHaveLength(expected.length);
		if (expected.signature) {
			expect(signature?.startsWith(expected.signature[0])).toBe(true);
			expect(signature).toHaveLength(expected.signature[1]);
		} else {
			expect(signature).toBeUndefined();
		}
	}
}

describe("google-generative-ai fixtures replayed in random chunks", () => {
	let server: ReplayServer;
	beforeAll(async () => {
		server = await startReplayServer();
	});
	afterAll(() => server.close());

	it("has an expectation for every capture of the folder", () => {
		expect(listFixtures(API).map((fixture) => fixture.name).sort()).toEqual(Object.keys(EXPECTED).sort());
	});

	for (const [name, expected] of Object.entries(EXPECTED)) {
		it(`${name}: the final message and events are right for every chunking`, async () => {
			const bytes = loadFixture(API, name);
			const crlfSeed = crlfSplittingSeed(bytes);
			expect(splitsCrlf(bytes, crlfSeed)).toBe(true);
			const results: unknown[] = [];
			for (const seed of [...SEEDS, crlfSeed]) {
				server.reset();
				server.enqueue(sseResponse(bytes, { chunking: { ...CHUNKING, seed } }));
				const recorded = await recordEvents(streamGoogle(onServer(server, geminiModel()), HELLO, { apiKey: TEST_KEY }));
				const { message } = assertEventProtocol(recorded);

				expect(message.stopReason).toBe(expected.stopReason);
				expect(message.rawStopReason).toBe(expected.rawStopReason);
				expect(message.responseId).toBe(expected.responseId);
				expect(message.model).toBe("gemini-2.5-flash");
				expect(message.responseModel).toBe(expected.responseModel);
				const { input, output, cacheRead } = expected.usage;
				expect(message.usage).toMatchObject({ input, output, cacheRead, cacheWrite: 0, totalTokens: input + output + cacheRead });
				if (expected.errorIncludes) {
					for (const fragment of expected.errorIncludes) expect(message.errorMessage).toContain(fragment);
				} else {
					expect(message.errorMessage).toBeUndefined();
				}
				expect(message.content).toHaveLength(expected.blocks.length);
				expected.blocks.forEach((block, index) => checkBlock(message.content[index], block));
				const ids = message.content.flatMap((block) => (block.type === "toolCall" ? [block.id] : []));
				expect(new Set(ids).size).toBe(ids.length);
				results.push(comparable(message));
			}
			for (const result of results.slice(1)) expect(result).toEqual(results[0]);
		});
	}
});
