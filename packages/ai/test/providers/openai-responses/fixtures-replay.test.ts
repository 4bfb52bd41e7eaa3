/**
 * Every recorded Responses capture, replayed through a real local server in random byte chunks
 * (five seeds each), must give the final message that MANIFEST.md and CONFORMANCE.md imply, a valid
 * event sequence, and the same message whatever the chunking.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertEventProtocol, listFixtures, loadFixture, type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import type { AssistantMessage, TextContent, ThinkingContent, ToolCall } from "../../../src/types.js";
import { API, replayFixture } from "./helpers.js";

const SEEDS = [1, 2, 3, 4, 5];

interface Expected {
	stopReason: AssistantMessage["stopReason"];
	rawStopReason?: string;
	responseId: string;
	/** `response.model`: every capture's differs from the requested `gpt-5`. */
	responseModel: string;
	usage: { input: number; output: number; cacheRead: number; cacheWrite: number; totalTokens: number };
	/** Block types in order. */
	blocks: ("text" | "thinking" | "toolCall")[];
	check?: (message: AssistantMessage) => void;
	errorMessage?: string;
}

const text = (message: AssistantMessage, n = 0) => message.content.filter((b): b is TextContent => b.type === "text")[n];
const thinking = (message: AssistantMessage, n = 0) => message.content.filter((b): b is ThinkingContent => b.type === "thinking")[n];
const calls = (message: AssistantMessage) => message.content.filter((b): b is ToolCall => b.type === "toolCall");

/** The `text` of every `response.reasoning_summary_part.done` event of a capture, in order. */
function summaryPartTexts(name: string): string[] {
	return loadFixture(API, name)
		.toString("utf8")
		.split("\n")
		.filter((line) => line.startsWith("data: ") && line.includes('"response.reasoning_summary_part.done"'))
		.map((line) => (JSON.parse(line.slice(6)) as { part: { text: string } }).part.text);
}

/** The `thinkingSignature` parsed: the whole reasoning item. */
function reasoningItem(block: ThinkingContent | undefined): Record<string, unknown> {
	return JSON.parse(block?.thinkingSignature ?? "null") as Record<string, unknown>;
}

const EXPECTED: Record<string, Expected> = {
	"text-basic": {
		stopReason: "stop",
		rawStopReason: "completed",
		responseId: "resp_0360bd45725b0a010068f966a4c4a881959717ba17b93477ef",
		responseModel: "gpt-4o-2024-08-06",
		usage: { input: 16, output: 11, cacheRead: 0, cacheWrite: 0, totalTokens: 27 },
		blocks: ["text"],
		check: (m) => {
			expect(text(m)).toEqual({ type: "text", text: "4200 + 42 equals 4242.", textSignature: '{"id":"msg_0360bd45725b0a010068f966a601b081958e95c4085b086532"}' });
		},
	},
	"structured-output": {
		stopReason: "stop",
		rawStopReason: "completed",
		responseId: "resp_089d7482d1faaec10068f966e121708196a5c0a755c0348821",
		responseModel: "gpt-4o-2024-08-06",
		usage: { input: 166, output: 30, cacheRead: 0, cacheWrite: 0, totalTokens: 196 },
		blocks: ["text"],
		check: (m) => {
			expect(text(m)).toEqual({
				type: "text",
				text: '{"title":"THE NAME OF THE WIND","author":{"first_name":"Patrick","last_name":"Rothfuss"},"rating":7}',
				textSignature: '{"id":"msg_089d7482d1faaec10068f966e1afec8196ada045413e3b10a2"}',
			});
		},
	},
	"structured-output-after-tool": {
		stopReason: "stop",
		rawStopReason: "completed",
		responseId: "resp_0b0d1528ca873fd80068f967186c688195adf23339fde81706",
		responseModel: "gpt-4o-2024-08-06",
		usage: { input: 197, output: 66, cacheRead: 0, cacheWrite: 0, totalTokens: 263 },
		// gpt-4o answered with the same object in two message items.
		blocks: ["text", "text"],
		check: (m) => {
			const object = '{"title":"Mistborn: The Final Empire","author":"Brandon Sanderson","pages":544,"publication_year":2006}';
			expect(text(m, 0)?.text).toBe(object);
			expect(text(m, 1)?.text).toBe(object);
		},
	},
	"structured-output-tool-call": {
		stopReason: "toolUse",
		rawStopReason: "completed",
		responseId: "resp_0b0d1528ca873fd80068f96716e0a881959ce78c2741741b42",
		responseModel: "gpt-4o-2024-08-06",
		usage: { input: 134, output: 23, cacheRead: 0, cacheWrite: 0, totalTokens: 157 },
		blocks: ["toolCall"],
		check: (m) => {
			expect(calls(m)).toEqual([
				{ type: "toolCall", id: "call_DKUnanrHFNzdv0dwE1kN17XB|fc_0b0d1528ca873fd80068f96717b898819584210b5eea6ab9e8", name: "get_book_info", arguments: { isbn: "0-7653-1178-X" } },
			]);
		},
	},
	"function-call-single": {
		stopReason: "toolUse",
		rawStopReason: "completed",
		responseId: "resp_67e554a155508191900ee113293c4c830794405d35281ae2",
		responseModel: "gpt-4o-2024-08-06",
		usage: { input: 255, output: 16, cacheRead: 0, cacheWrite: 0, totalTokens: 271 },
		blocks: ["toolCall"],
		check: (m) => {
			expect(calls(m)).toEqual([
				{ type: "toolCall", id: "call_kL0PCQV7M2WMoVX8V8OtYSAL|fc_67e554a1de488191af0831d35cbe082e0794405d35281ae2", name: "get_capital", arguments: { country: "France" } },
			]);
		},
	},
	"function-calls-parallel": {
		stopReason: "toolUse",
		rawStopReason: "completed",
		responseId: "resp_0c3b09d20eedf2d30068f966b9b7048190b7501a24a1447ec0",
		responseModel: "gpt-4o-2024-08-06",
		usage: { input: 36, output: 54, cacheRead: 0, cacheWrite: 0, totalTokens: 90 },
		blocks: ["toolCall", "toolCall"],
		check: (m) => {
			expect(calls(m)).toEqual([
				{ type: "toolCall", id: "call_sKC7OABqf2A2PTLCm0CLeRWV|fc_0c3b09d20eedf2d30068f966bad8b88190af96d232f504ef1f", name: "secret_retrieval_tool", arguments: { password: "mellon" } },
				{ type: "toolCall", id: "call_OdR3s3xop0vtgkDyWRMLafuH|fc_0c3b09d20eedf2d30068f966bafd288190a9045fdc554de6d5", name: "secret_retrieval_tool", arguments: { password: "radiance" } },
			]);
		},
	},
	"reasoning-summary-function-call": {
		stopReason: "toolUse",
		rawStopReason: "completed",
		responseId: "resp_01830d662ab3856501693c321345c88190b0de00f3b9975691",
		responseModel: "gpt-5.1-codex-max",
		usage: { input: 134, output: 28, cacheRead: 0, cacheWrite: 0, totalTokens: 162 },
		blocks: ["thinking", "toolCall"],
		check: (m) => {
			expect(thinking(m)?.thinking).toBe(
				"**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product.",
			);
			const item = reasoningItem(thinking(m));
			expect(item.type).toBe("reasoning");
			expect(item.id).toBe("rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9");
			// The encrypted content of output_item.done (not .added), which the server can verify on replay.
			expect(String(item.encrypted_content)).toMatch(/^gAAAAABpPDIVOKrsHNZ0/);
			expect(calls(m)).toEqual([
				{ type: "toolCall", id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn|fc_01830d662ab3856501693c32151234819091cfca267e98cc5f", name: "calculator", arguments: { a: 12, b: 7, op: "add" } },
			]);
		},
	},
	"reasoning-summary-multipart": {
		stopReason: "stop",
		rawStopReason: "completed",
		responseId: "resp_0a1097cbfef27a8c00696afa23fb9c819693455c72eabd7718",
		responseModel: "gpt-5-2025-08-07",
		usage: { input: 32, output: 839, cacheRead: 0, cacheWrite: 0, totalTokens: 871 },
		blocks: ["thinking", "text"],
		check: (m) => {
			const parts = summaryPartTexts("reasoning-summary-multipart");
			expect(parts).toHaveLength(3);
			// Three summary parts, one thinking block, a blank line between parts.
			expect(thinking(m)?.thinking).toBe(parts.join("\n\n"));
			expect(thinking(m)?.thinking.startsWith("**Exploring prime numbers**\n\nI need to f")).toBe(true);
			expect(reasoningItem(thinking(m)).id).toBe("rs_0a1097cbfef27a8c00696afa2459008196a08a4261aba00f56");
			expect(text(m)?.text).toBe("3");
		},
	},
	"incomplete-max-output-tokens": {
		stopReason: "length",
		rawStopReason: "max_output_tokens",
		responseId: "resp_0cca8afa69cc6ca90068f966c4826c8193ae5b3f5ad5030e49",
		responseModel: "gpt-4o-2024-08-06",
		usage: { input: 14, output: 50, cacheRead: 0, cacheWrite: 0, totalTokens: 64 },
		blocks: ["text"],
		check: (m) => {
			expect(text(m)?.text.startsWith("Sure! Here is a list of all 50 U.S. states:\n\n1. Alabama\n2. Alaska\n3. A")).toBe(true);
		},
	},
	refusal: {
		stopReason: "stop",
		rawStopReason: "completed",
		responseId: "resp_05f46fd4032c869b0068f966cb89248197969af833ea7a7e33",
		responseModel: "gpt-4o-2024-08-06",
		usage: { input: 54, output: 11, cacheRead: 0, cacheWrite: 0, totalTokens: 65 },
		blocks: ["text"],
		check: (m) => {
			expect(text(m)?.text).toBe("I'm sorry, I can't assist with that.");
		},
	},
	"error-insufficient-quota": {
		stopReason: "error",
		rawStopReason: "error",
		responseId: "resp_05500b38c2cd9bfc00691c7c9d222481a3b595421266dab424",
		responseModel: "gpt-5-nano-2025-08-07",
		usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 },
		blocks: [],
		errorMessage:
			"insufficient_quota: You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
	},
	"web-search": {
		stopReason: "stop",
		rawStopReason: "completed",
		responseId: "resp_00a60507bf41223d0068c9d2fbf93481a0ba2a7796ae2cab4c",
		responseModel: "gpt-5-2025-08-07",
		usage: { input: 9463 - 8320, output: 582, cacheRead: 8320, cacheWrite: 0, totalTokens: 10045 },
		// Two encrypted reasoning items (no summary text) and the answer; the web_search_call is no tool call.
		blocks: ["thinking", "thinking", "text"],
		check: (m) => {
			expect(thinking(m, 0)?.thinking).toBe("");
			expect(reasoningItem(thinking(m, 0)).id).toBe("rs_00a60507bf41223d0068c9d2fc927081a088e0b920cdfe3866");
			expect(reasoningItem(thinking(m, 1)).id).toBe("rs_00a60507bf41223d0068c9d300b23481a0b77a03d911213220");
			expect(text(m)?.text.startsWith("San Francisco weather today (Tuesday, September 16, 2025): Mostly sunn")).toBe(true);
			expect(m.usage.cost.input).toBeCloseTo((1143 * 1.25) / 1e6, 12);
			expect(m.usage.cost.cacheRead).toBeCloseTo((8320 * 0.125) / 1e6, 12);
			expect(m.usage.cost.output).toBeCloseTo((582 * 10) / 1e6, 12);
		},
	},
	"background-queued": {
		// The capture runs to response.completed: a background job whose stream finished is a normal reply.
		stopReason: "stop",
		rawStopReason: "completed",
		responseId: "resp_0da443d9ee8333600069950a0635d88196b2d9243b08e8cc01",
		responseModel: "gpt-4o-2024-08-06",
		usage: { input: 15, output: 9, cacheRead: 0, cacheWrite: 0, totalTokens: 24 },
		blocks: ["text"],
		check: (m) => {
			expect(text(m)?.text).toBe("2 + 2 equals 4.");
			expect(m.deferred).toBeUndefined();
		},
	},
	"text-then-function-call-phase": {
		stopReason: "toolUse",
		rawStopReason: "completed",
		responseId: "resp_0fabc13af1ee0049006a691dfdab8881a1a75f2db7ff78cb83",
		responseModel: "gpt-5.5-2026-04-23",
		usage: { input: 63, output: 69, cacheRead: 0, cacheWrite: 0, totalTokens: 132 },
		blocks: ["thinking", "text", "toolCall"],
		check: (m) => {
			expect(reasoningItem(thinking(m)).id).toBe("rs_0fabc13af1ee0049006a691dfe60b081a1baa444d3cf19afba");
			expect(text(m)).toEqual({
				type: "text",
				text: "I’ll check the capital lookup tool for “PotatoLand.”",
				textSignature: '{"id":"msg_0fabc13af1ee0049006a691dfebdc881a1ae18d027c313d8ce","phase":"commentary"}',
			});
			expect(calls(m)).toEqual([
				{ type: "toolCall", id: "call_LabG58Uhrq9kZvR52BYKjToD|fc_0fabc13af1ee0049006a691dff0c1481a1b4a0eec7e3c753bb", name: "get_capital", arguments: { country: "PotatoLand" } },
			]);
		},
	},
	"deepseek-function-call": {
		stopReason: "toolUse",
		rawStopReason: "completed",
		responseId: "1235b7ba-fdc9-4a1c-bfe4-6137c207baf3",
		responseModel: "deepseek-v4-flash",
		usage: { input: 110, output: 59, cacheRead: 256, cacheWrite: 0, totalTokens: 425 },
		blocks: ["thinking", "toolCall"],
		check: (m) => {
			expect(thinking(m)?.thinking).toBe("The user asks about temperature in Tokyo. I'll call the tool.");
			expect(reasoningItem(thinking(m)).id).toBe("fa6f3a83-5d25-46e8-9d03-1a89ce5cf2ba");
			expect(calls(m)).toEqual([
				{ type: "toolCall", id: "call_00_xjY8Z2BvSlzgEmmw0DtH0464|62bf2bb7-56af-4e3a-883b-83d4aad54da1", name: "get_temperature", arguments: { city: "Tokyo" } },
			]);
		},
	},
	"lmstudio-reasoning-tool-call": {
		stopReason: "toolUse",
		rawStopReason: "completed",
		responseId: "resp_cc7bfe18e2f2eca93006515c0fd19cfed16e46a93a60444a",
		responseModel: "zai-org/glm-4.7-flash",
		usage: { input: 180, output: 61, cacheRead: 2, cacheWrite: 0, totalTokens: 243 },
		blocks: ["thinking", "text", "toolCall"],
		check: (m) => {
			expect(thinking(m)?.thinking).toBe(
				'The user is asking for the weather in San Francisco. I have a weather function available that takes a location parameter. The user has provided "San Francisco" as the location, so I have all the required information to make the function call.',
			);
			expect(text(m)?.text).toBe("I'll get the current weather information for San Francisco for you.");
			// Arguments arrive only in function_call_arguments.done (no deltas).
			expect(calls(m)).toEqual([
				{ type: "toolCall", id: "call_2025306790300011|fc_z9synwu0kvc33k6e9u3dq4", name: "weather", arguments: { location: "San Francisco" } },
			]);
		},
	},
};

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(async () => {
	await server.close();
});

describe("openai-responses captures", () => {
	it("covers every capture of the folder", () => {
		expect(listFixtures(API).map((fixture) => fixture.name).sort()).toEqual(Object.keys(EXPECTED).sort());
	});

	for (const [name, expected] of Object.entries(EXPECTED)) {
		it(`${name}: final message, usage and event protocol over ${SEEDS.length} chunkings`, async () => {
			const finals: string[] = [];
			for (const seed of SEEDS) {
				const recorded = await replayFixture(server, name, {}, seed);
				const { message } = assertEventProtocol(recorded);
				expect(message.stopReason).toBe(expected.stopReason);
				expect(message.rawStopReason).toBe(expected.rawStopReason);
				expect(message.responseId).toBe(expected.responseId);
				expect(message.api).toBe("openai-responses");
				expect(message.provider).toBe("openai");
				expect(message.model).toBe("gpt-5");
				expect(message.responseModel).toBe(expected.responseModel);
				const { cost: _cost, ...tokens } = message.usage;
				expect(tokens).toEqual(expected.usage);
				expect(message.content.map((block) => block.type)).toEqual(expected.blocks);
				if (expected.errorMessage !== undefined) expect(message.errorMessage).toBe(expected.errorMessage);
				else expect(message.errorMessage).toBeUndefined();
				expected.check?.(message);
				finals.push(JSON.stringify({ ...message, timestamp: 0 }));
			}
			expect(new Set(finals).size).toBe(1);
		});
	}
});
