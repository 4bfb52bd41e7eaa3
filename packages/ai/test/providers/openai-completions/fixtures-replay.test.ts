import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamOpenAICompletions } from "../../../src/providers/openai-completions.js";
import { assertEventProtocol, listFixtures, loadFixture, recordEvents, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import type { AssistantMessage, Model, Provider, StopReason } from "../../../src/types.js";
import { ask, completionsModel } from "./helpers.js";

/**
 * Every recorded Chat Completions capture, replayed through a real local server in random byte
 * chunks with five seeds. Expected values come from fixtures/MANIFEST.md and an independent
 * line-by-line read of each file (texts as the first 16 hex digits of their UTF-8 SHA-256);
 * usage follows the CONFORMANCE usage table (input = prompt − cached, output = completion).
 */
type Block =
	| { type: "text"; start: string; sha: string }
	| { type: "thinking"; start: string; sha: string }
	| { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> };

interface Expected {
	provider: Provider;
	modelId: string;
	responseId: string;
	/** The chunks' `model` where it differs from `modelId` (first non-empty value), else `undefined`. */
	responseModel: string | undefined;
	stopReason: StopReason;
	/** `undefined` where the stream has no finish_reason. */
	raw: string | undefined;
	usage: { input: number; output: number; cacheRead: number; cacheWrite: number };
	blocks: Block[];
	/** For error endings: a piece of the error message. */
	error?: string;
}

const NO_USAGE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

const EXPECTED: Record<string, Expected> = {
	"azure-content-filter-results": {
		provider: "azure",
		modelId: "gpt-5-nano",
		responseId: "chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt",
		responseModel: "gpt-5-nano-2025-08-07",
		stopReason: "stop",
		raw: "stop",
		usage: { input: 15, output: 78, cacheRead: 0, cacheWrite: 0 },
		blocks: [{ type: "text", start: "Capital of Denmark.", sha: "53f836c9fbdabf17" }],
	},
	"deepseek-reasoning-content": {
		provider: "deepseek",
		modelId: "deepseek-reasoner",
		responseId: "33be18fc-3842-486c-8c29-dd8e578f7f20",
		responseModel: undefined,
		stopReason: "stop",
		raw: "stop",
		usage: { input: 6, output: 212, cacheRead: 0, cacheWrite: 0 },
		blocks: [
			{ type: "thinking", start: 'Hmm, the user just said "Hello', sha: "d29146ea4f40dfde" },
			{ type: "text", start: "Hello there! 😊 How can I help", sha: "cf0e60278f7fbdc3" },
		],
	},
	"deepseek-reasoning-tool-call": {
		provider: "deepseek",
		modelId: "deepseek-reasoner",
		responseId: "cca85624-4056-401f-b220-d77601d1f70d",
		responseModel: undefined,
		stopReason: "toolUse",
		raw: "tool_calls",
		usage: { input: 19, output: 83, cacheRead: 320, cacheWrite: 0 },
		blocks: [
			{ type: "thinking", start: "The user is asking for the wea", sha: "e9e5190a993cf891" },
			{ type: "toolCall", id: "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF", name: "weather", arguments: { location: "San Francisco" } },
		],
	},
	"groq-error-mid-stream": {
		provider: "groq",
		modelId: "openai/gpt-oss-120b",
		responseId: "chatcmpl-4f39f3af-3267-4ac1-a0cf-6aa7451877dc",
		responseModel: undefined,
		stopReason: "error",
		raw: undefined,
		usage: NO_USAGE,
		blocks: [{ type: "thinking", start: "We need to call the tool with ", sha: "42abcfd444c13a25" }],
		error: "Tool call validation failed",
	},
	"groq-tool-call": {
		provider: "groq",
		modelId: "llama-3.3-70b-versatile",
		responseId: "chatcmpl-b610d559-f156-4aca-8827-24b4fe6af54f",
		responseModel: undefined,
		stopReason: "toolUse",
		raw: "tool_calls",
		usage: { input: 210, output: 15, cacheRead: 0, cacheWrite: 0 },
		blocks: [{ type: "toolCall", id: "tk85n1k4m", name: "weather", arguments: {} }],
	},
	"length-reasoning-only": {
		provider: "openai",
		modelId: "gpt-5-mini",
		responseId: "chatcmpl-CpaLKsZmiiFPwrb0Ocw5FOVrMV89U",
		responseModel: "gpt-5-mini-2025-08-07",
		stopReason: "length",
		raw: "length",
		usage: { input: 13, output: 50, cacheRead: 0, cacheWrite: 0 },
		blocks: [],
	},
	length: {
		provider: "openai",
		modelId: "gpt-4o",
		responseId: "chatcmpl-CoDWtmOB2DZI2l0bK84UVJEMpo63W",
		responseModel: "gpt-4o-2024-08-06",
		stopReason: "length",
		raw: "length",
		usage: { input: 14, output: 50, cacheRead: 0, cacheWrite: 0 },
		blocks: [{ type: "text", start: "Here is a list of all 50 U.S. ", sha: "1b9dc7f89690398c" }],
	},
	"mistral-thinking-content-array": {
		provider: "mistral",
		modelId: "magistral-medium-2507",
		responseId: "a4e29c5b82f94d67b23e108a7c9df6e1",
		responseModel: undefined,
		stopReason: "stop",
		raw: "stop",
		usage: { input: 10, output: 46, cacheRead: 0, cacheWrite: 0 },
		blocks: [
			{ type: "thinking", start: "The user is asking for 2+2. Th", sha: "3ee98375cfe6fe4e" },
			{ type: "text", start: "2 + 2 = 4", sha: "e93dff0d1076b537" },
		],
	},
	"mistral-tool-call": {
		provider: "mistral",
		modelId: "mistral-small-latest",
		responseId: "b3999b8c93e04e11bcbff7bcab829667",
		responseModel: undefined,
		stopReason: "toolUse",
		raw: "tool_calls",
		usage: { input: 124, output: 22, cacheRead: 0, cacheWrite: 0 },
		blocks: [{ type: "toolCall", id: "gSIMJiOkT", name: "weather", arguments: { location: "San Francisco" } }],
	},
	"openrouter-text": {
		provider: "openrouter",
		modelId: "openai/gpt-4o",
		responseId: "gen-1769672442-Z2w3cx2qa1PhMrNBv0Bm",
		responseModel: undefined,
		stopReason: "stop",
		raw: "stop",
		usage: { input: 12, output: 2, cacheRead: 0, cacheWrite: 0 },
		blocks: [{ type: "text", start: "Hello!", sha: "334d016f755cd6dc" }],
	},
	refusal: {
		provider: "openai",
		modelId: "gpt-4o",
		responseId: "chatcmpl-CoDWxLsl1kVbpr74j0IN577ELqIIt",
		responseModel: "gpt-4o-2024-08-06",
		stopReason: "stop",
		raw: "stop",
		usage: { input: 64, output: 13, cacheRead: 0, cacheWrite: 0 },
		blocks: [{ type: "text", start: "I'm very sorry, but I can't as", sha: "a18054b9902bcd11" }],
	},
	"text-basic": {
		provider: "openai",
		modelId: "gpt-4o-mini",
		responseId: "chatcmpl-Dx0Xq5Xx9rHB2ehcHZCRDsnuymUXc",
		responseModel: "gpt-4o-mini-2024-07-18",
		stopReason: "stop",
		raw: "stop",
		usage: { input: 78, output: 9, cacheRead: 0, cacheWrite: 0 },
		blocks: [{ type: "text", start: "The capital of the UK is Londo", sha: "6d6d6474ad3b118a" }],
	},
	"structured-output": {
		provider: "openai",
		modelId: "gpt-4o",
		responseId: "chatcmpl-CoDX5g6U9ga65gx3fxV3dXmLy6mKh",
		responseModel: "gpt-4o-2024-08-06",
		stopReason: "stop",
		raw: "stop",
		usage: { input: 172, output: 29, cacheRead: 0, cacheWrite: 0 },
		blocks: [{ type: "text", start: '{"title":"THE NAME OF THE WIND', sha: "b5cdc70d2dca4d19" }],
	},
	"structured-output-after-tool": {
		provider: "openai",
		modelId: "gpt-4o",
		responseId: "chatcmpl-CoDXdVDCzI7BkCboAVilrHGhdhtS0",
		responseModel: "gpt-4o-2024-08-06",
		stopReason: "stop",
		raw: "stop",
		usage: { input: 200, output: 64, cacheRead: 0, cacheWrite: 0 },
		// gpt-4o wrote its object twice, on two lines, in one text.
		blocks: [{ type: "text", start: '{"title":"Mistborn: The Final ', sha: "f505679b0225cfd9" }],
	},
	"structured-output-tool-call": {
		provider: "openai",
		modelId: "gpt-4o",
		responseId: "chatcmpl-CoDXb3ZdAQeLQYW0sQOns8VcUTipg",
		responseModel: "gpt-4o-2024-08-06",
		stopReason: "toolUse",
		raw: "tool_calls",
		usage: { input: 140, output: 22, cacheRead: 0, cacheWrite: 0 },
		blocks: [{ type: "toolCall", id: "call_byrt8SHXR4qCw7vA8xDplwcU", name: "get_book_info", arguments: { isbn: "0-7653-1178-X" } }],
	},
	"tool-call-single": {
		provider: "openai",
		modelId: "gpt-4o-mini",
		responseId: "chatcmpl-Dx0XpqH8w09uBXwq1zFGYdETjtnEl",
		responseModel: "gpt-4o-mini-2024-07-18",
		stopReason: "toolUse",
		raw: "tool_calls",
		usage: { input: 53, output: 15, cacheRead: 0, cacheWrite: 0 },
		blocks: [{ type: "toolCall", id: "call_ZR5UUuTt3pf61kjwAJIYdVMj", name: "get_capital", arguments: { country: "UK" } }],
	},
	"tool-calls-parallel-no-usage": {
		provider: "openai",
		modelId: "gpt-3.5-turbo-0125",
		responseId: "chatcmpl-9g58noIjRkOeNNxfFsFfcNjhXlul7",
		responseModel: undefined,
		stopReason: "toolUse",
		raw: "tool_calls",
		usage: NO_USAGE,
		blocks: [
			{ type: "toolCall", id: "call_cCPjAyfwTzboEKjVlqFrArNF", name: "get_current_weather", arguments: { location: "San Francisco" } },
			{ type: "toolCall", id: "call_Zi4He1Ns0mozwT6f85nW1BOW", name: "get_current_weather", arguments: { location: "Boston" } },
		],
	},
	"tool-calls-parallel": {
		provider: "openai",
		modelId: "gpt-4o",
		responseId: "chatcmpl-CoDWpGC47t2wtJ7PYJq9LCn0IZunc",
		responseModel: "gpt-4o-2024-08-06",
		stopReason: "toolUse",
		raw: "tool_calls",
		usage: { input: 75, output: 53, cacheRead: 0, cacheWrite: 0 },
		blocks: [
			{ type: "toolCall", id: "call_M26z19sncd7b4LBgzKRRbaUE", name: "secret_retrieval_tool", arguments: { password: "mellon" } },
			{ type: "toolCall", id: "call_KPXe5NX7IcKkaBUhc6dto2QV", name: "secret_retrieval_tool", arguments: { password: "radiance" } },
		],
	},
	"vllm-length": {
		provider: "vllm",
		modelId: "facebook/opt-125m",
		responseId: "chat-22c24755532348e6b6ff75297b1a71b3",
		responseModel: undefined,
		stopReason: "length",
		raw: "length",
		usage: NO_USAGE,
		blocks: [{ type: "text", start: "<|im_end|>doctor\n<|im_end|>sup", sha: "ab2afa09960be2e2" }],
	},
	"xai-reasoning-tool-call": {
		provider: "xai",
		modelId: "grok-3-mini",
		responseId: "de9d896d-e946-b3a7-bb14-75ab33326930",
		responseModel: undefined,
		stopReason: "toolUse",
		raw: "tool_calls",
		// xAI counts its 196 reasoning tokens outside completion_tokens (26) and inside total_tokens
		// (513 = 291 + 26 + 196): output counts them too, so totalTokens matches the server's 513.
		usage: { input: 1, output: 222, cacheRead: 290, cacheWrite: 0 },
		blocks: [
			{ type: "thinking", start: "First, the user is", sha: "63295441958c2748" },
			{ type: "toolCall", id: "call_55117580", name: "weather", arguments: { location: "San Francisco" } },
		],
	},
};

const SEEDS = [1, 2, 3, 4, 5];
const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);

function summarize(message: AssistantMessage): Block[] {
	return message.content.map((block): Block => {
		if (block.type === "text") return { type: "text", start: block.text.slice(0, 30), sha: sha(block.text) };
		if (block.type === "thinking") return { type: "thinking", start: block.thinking.slice(0, 30), sha: sha(block.thinking) };
		return { type: "toolCall", id: block.id, name: block.name, arguments: block.arguments };
	});
}

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer({ chunking: { minChunkBytes: 1, maxChunkBytes: 48 } });
});
afterAll(() => server.close());

describe("openai-completions fixtures replayed in random chunks", () => {
	it("covers every capture of the folder", () => {
		expect(listFixtures("openai-completions").map((fixture) => fixture.name).sort()).toEqual(Object.keys(EXPECTED).sort());
	});

	for (const [name, expected] of Object.entries(EXPECTED)) {
		it(`${name}: the final message MANIFEST.md implies, identical across seeds`, async () => {
			const bytes = loadFixture("openai-completions", name);
			const model: Model<"openai-completions"> = completionsModel({
				provider: expected.provider,
				id: expected.modelId,
				baseUrl: `${server.url}/v1`,
			});
			const finals: AssistantMessage[] = [];
			for (const seed of SEEDS) {
				server.reset();
				server.enqueue(sseResponse(bytes, { chunking: { seed } }));
				const recorded = await recordEvents(streamOpenAICompletions(model, ask(), { apiKey: "sk-test" }));
				const { message } = assertEventProtocol(recorded);
				expect(summarize(message)).toEqual(expected.blocks);
				expect(message.stopReason).toBe(expected.stopReason);
				expect(message.rawStopReason).toBe(expected.raw);
				expect(message.responseId).toBe(expected.responseId);
				expect(message.model).toBe(expected.modelId);
				expect(message.responseModel).toBe(expected.responseModel);
				const { input, output, cacheRead, cacheWrite, totalTokens } = message.usage;
				expect({ input, output, cacheRead, cacheWrite }).toEqual(expected.usage);
				expect(totalTokens).toBe(input + output + cacheRead + cacheWrite);
				if (expected.error) expect(message.errorMessage).toContain(expected.error);
				else expect(message.errorMessage).toBeUndefined();
				finals.push(message);
			}
			const comparable = finals.map(({ timestamp: _timestamp, ...rest }) => rest);
			for (const other of comparable.slice(1)) expect(other).toEqual(comparable[0]);
		});
	}
});
