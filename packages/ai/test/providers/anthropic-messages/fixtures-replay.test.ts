import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic-messages.js";
import { assertEventProtocol, listFixtures, loadFixture, recordEvents, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import type { AssistantMessage, StopReason } from "../../../src/types.js";
import { anthropicModel, ask } from "./helpers.js";

/**
 * Every recorded Anthropic capture, replayed through a real local server in random byte chunks
 * with several seeds. Expected values were computed from the capture files by an independent
 * script (block texts as the first 16 hex digits of their UTF-8 SHA-256), and agree with
 * fixtures/MANIFEST.md and the usage table of CONFORMANCE.md.
 */
type ExpectedBlock =
	| { type: "text"; start: string; sha: string }
	| { type: "thinking"; start: string; sha: string; signatureSha: string }
	| { type: "redacted"; signatureSha: string }
	| { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> };

interface Expected {
	responseId: string;
	/** `message_start.message.model` where it differs from the requested `claude-sonnet-4-20250514`, else `undefined`. */
	responseModel: string | undefined;
	raw: string;
	usage: { input: number; output: number; cacheRead: number; cacheWrite: number };
	blocks: ExpectedBlock[];
}

const EXPECTED: Record<string, Expected> = {
	"max-tokens": { responseId: "msg_0135e9LyciVm4QrXrdNRjpNS", responseModel: undefined, raw: "max_tokens", usage: { input: 15, output: 50, cacheRead: 0, cacheWrite: 0 }, blocks: [
		{ type: "text", start: "Here are all 50 U.S. states in", sha: "62b67cf9f197fa98" },
	] },
	"pause-turn-web-search": { responseId: "msg_01SC6GnkBDsmEDqyXQpQ2ipm", responseModel: "claude-sonnet-4-5-20250929", raw: "pause_turn", usage: { input: 404500, output: 943, cacheRead: 0, cacheWrite: 0 }, blocks: [
		{ type: "thinking", start: "The user wants me to run a ser", sha: "d6ff8883e7ef59e6", signatureSha: "3b2f60f52032145b" },
		{ type: "text", start: "I'll run these searches one at", sha: "248a68f44b2866de" },
		{ type: "text", start: "Let me continue with the remai", sha: "5ac6751552fb4817" },
		{ type: "text", start: "Now continuing with the remain", sha: "73648045e7304ba0" },
	] },
	"prompt-cache-read": { responseId: "msg_01XQRA3bs4SB4yTBMwD3dbUi", responseModel: "claude-3-5-sonnet-20240620", raw: "end_turn", usage: { input: 4, output: 221, cacheRead: 1165, cacheWrite: 0 }, blocks: [
		{ type: "text", start: "Here are concise summaries of ", sha: "9140ad0b0313ec35" },
	] },
	"prompt-cache-write": { responseId: "msg_017FfRkh9PCC8YbjnhDMrPuK", responseModel: "claude-3-5-sonnet-20240620", raw: "end_turn", usage: { input: 4, output: 201, cacheRead: 0, cacheWrite: 1165 }, blocks: [
		{ type: "text", start: "Here are concise summaries of ", sha: "ec81e3b73aab1f6a" },
	] },
	"redacted-thinking": { responseId: "msg_018XZkwvj9asBiffg3fXt88s", responseModel: "claude-sonnet-4-5-20250929", raw: "end_turn", usage: { input: 92, output: 189, cacheRead: 0, cacheWrite: 0 }, blocks: [
		{ type: "redacted", signatureSha: "a5fcad0dab0d0189" },
		{ type: "redacted", signatureSha: "f2ba85446010cd8c" },
		{ type: "text", start: "I notice that you've sent what", sha: "33e0d169251b911c" },
	] },
	"refusal-stop-details": { responseId: "msg_011Cef1BfCEZn512shRMGG4q", responseModel: "claude-fable-5-1", raw: "refusal", usage: { input: 97, output: 0, cacheRead: 0, cacheWrite: 0 }, blocks: [] },
	"text-basic": { responseId: "msg_01QC4g3HwBThD4BaNtBckFDJ", responseModel: "claude-sonnet-4-5-20250929", raw: "end_turn", usage: { input: 12, output: 30, cacheRead: 0, cacheWrite: 0 }, blocks: [
		{ type: "text", start: "Hello! I'm doing well, thank y", sha: "3ff17711b62557e4" },
	] },
	"text-raw-padded": { responseId: "msg_018bk6q16LtrDpGDm6TyXTgn", responseModel: undefined, raw: "end_turn", usage: { input: 17, output: 15, cacheRead: 0, cacheWrite: 0 }, blocks: [
		{ type: "text", start: "4200 + 42 = 4242", sha: "e73da71d57e7e3a1" },
	] },
	"thinking-signature": { responseId: "msg_01ALwQ87pTS7hH1PjSdC9wJD", responseModel: undefined, raw: "end_turn", usage: { input: 43, output: 282, cacheRead: 0, cacheWrite: 0 }, blocks: [
		{ type: "thinking", start: "This is a straightforward ques", sha: "18c2c6e0236da2b1", signatureSha: "e2385f7486c5cf36" },
		{ type: "text", start: "Here are the basic steps for s", sha: "1b0c432c3a48cc28" },
	] },
	"thinking-then-tool-use": { responseId: "msg_01JdU4xqNHXL9QCFWkwCDKGr", responseModel: "claude-haiku-4-5-20251001", raw: "tool_use", usage: { input: 598, output: 92, cacheRead: 0, cacheWrite: 0 }, blocks: [
		{ type: "thinking", start: "The user wants me to:\n1. Use t", sha: "7a4548123a7bd849", signatureSha: "1ca0c5e976b11f45" },
		{ type: "toolCall", id: "toolu_01825dXWLSoJwCst1qTsiWdb", name: "fixed_version", arguments: {} },
	] },
	"tool-search-then-client-tool": { responseId: "msg_01E3Wn1NynZw9FALZ68znj9S", responseModel: "claude-sonnet-4-6", raw: "tool_use", usage: { input: 1591, output: 175, cacheRead: 0, cacheWrite: 0 }, blocks: [
		{ type: "text", start: "Let me search for a tool that ", sha: "d7f3cac07feb1f75" },
		{ type: "text", start: "I found the right tool! Let me", sha: "bce04602bebffa40" },
		{ type: "toolCall", id: "toolu_01EFn5wTNBYA8Reni8rbmnHT", name: "get_exchange_rate", arguments: {from_currency: "USD", to_currency: "EUR"} },
	] },
	"tool-use-parallel-claude35": { responseId: "msg_0138UNF3YbNp49KkqZtUBWqz", responseModel: "claude-3-5-sonnet-20240620", raw: "tool_use", usage: { input: 506, output: 153, cacheRead: 0, cacheWrite: 0 }, blocks: [
		{ type: "text", start: "Certainly! I can help you with", sha: "3f8cb726928ccebb" },
		{ type: "toolCall", id: "toolu_014x5X91kx3fvdhpLvwXZWE2", name: "get_weather", arguments: {location: "San Francisco, CA", unit: "celsius"} },
		{ type: "toolCall", id: "toolu_0121kXsENLvoDZ72LCuAnCCz", name: "get_time", arguments: {timezone: "America/Los_Angeles"} },
	] },
	"tool-use-parallel": { responseId: "msg_013zKrzHmx2EAPhcF2gQKQ4k", responseModel: undefined, raw: "tool_use", usage: { input: 416, output: 109, cacheRead: 0, cacheWrite: 0 }, blocks: [
		{ type: "text", start: "I'll retrieve the secrets for ", sha: "1437321807526908" },
		{ type: "toolCall", id: "toolu_015cUijgET79LXjgeYQerN2h", name: "secret_retrieval_tool", arguments: {password: "mellon"} },
		{ type: "toolCall", id: "toolu_01XZTimPexA7h3EVKesnKt5T", name: "secret_retrieval_tool", arguments: {password: "radiance"} },
	] },
	"structured-output": { responseId: "msg_01Lp3q61dED1bZH8MLNdKoWh", responseModel: "claude-sonnet-4-5-20250929", raw: "end_turn", usage: { input: 414, output: 36, cacheRead: 0, cacheWrite: 0 }, blocks: [
		{ type: "text", start: '{"title":"THE NAME OF THE WIND', sha: "b5cdc70d2dca4d19" },
	] },
	"structured-output-after-tool": { responseId: "msg_01HAvNMhmeHDwJjfph4orDk1", responseModel: "claude-sonnet-4-5-20250929", raw: "end_turn", usage: { input: 961, output: 39, cacheRead: 0, cacheWrite: 0 }, blocks: [
		{ type: "text", start: '{"title": "Mistborn: The Final', sha: "3f7ea5f77b3367e3" },
	] },
	"structured-output-forced-tool": { responseId: "msg_01Ud6PNxdHcY7waS2He9Y2Pa", responseModel: undefined, raw: "tool_use", usage: { input: 563, output: 81, cacheRead: 0, cacheWrite: 0 }, blocks: [
		{ type: "toolCall", id: "toolu_01DHUHxGZFvhMTraUdoHYRET", name: "__mirascope_formatted_output_tool__", arguments: { title: "THE NAME OF THE WIND", author: { first_name: "Patrick", last_name: "Rothfuss" }, rating: 7 } },
	] },
	"structured-output-forced-tool-after-tool": { responseId: "msg_01V1FRcbnWuYKvb99NsawVbK", responseModel: undefined, raw: "tool_use", usage: { input: 695, output: 109, cacheRead: 0, cacheWrite: 0 }, blocks: [
		{ type: "toolCall", id: "toolu_01LmkXmWv6pKQpNXvcHCggLS", name: "__mirascope_formatted_output_tool__", arguments: { title: "Mistborn: The Final Empire", author: "Brandon Sanderson", pages: 544, publication_year: 2006 } },
	] },
	"structured-output-tool-use": { responseId: "msg_013tw76xtHTuciSShuTiRWxt", responseModel: "claude-sonnet-4-5-20250929", raw: "tool_use", usage: { input: 854, output: 63, cacheRead: 0, cacheWrite: 0 }, blocks: [
		{ type: "toolCall", id: "toolu_01XSHJy1dKXBiVXQpn7CMEMJ", name: "get_book_info", arguments: { isbn: "0-7653-1178-X" } },
	] },
	"tool-use-single": { responseId: "msg_016HLENyjXXb8znkvfTXkY5j", responseModel: undefined, raw: "tool_use", usage: { input: 589, output: 48, cacheRead: 0, cacheWrite: 0 }, blocks: [
		{ type: "toolCall", id: "toolu_01WEKmJ3p3NNoNbLUEaY1AU6", name: "get_book_info", arguments: {isbn: "0-7653-1178-X"} },
	] },
	"web-search-server-tool": { responseId: "msg_01QmxBSdEbD9ZeBWDVgFDoQ5", responseModel: undefined, raw: "end_turn", usage: { input: 22397, output: 637, cacheRead: 0, cacheWrite: 0 }, blocks: [
		{ type: "thinking", start: "The user is asking about the w", sha: "b56a66e66d1cff81", signatureSha: "f3c311b831fc92cd" },
		{ type: "text", start: "Based on the search results, I", sha: "96787af8748818de" },
		{ type: "text", start: "Based on the search results, I", sha: "a5a7dd5d813aa3de" },
		{ type: "text", start: "today (September 16) shows a h", sha: "78e1308cb3d10814" },
		{ type: "text", start: " for San Francisco.\n\nFrom the ", sha: "e56f775a0838684e" },
		{ type: "text", start: "average mid-September highs in", sha: "ac738346aebe3264" },
		{ type: "text", start: ", so today's forecast of 76°F ", sha: "70073c922d6a2d89" },
		{ type: "text", start: "Daytime temperatures usually r", sha: "4cff5f6047eeaba5" },
		{ type: "text", start: "\n- ", sha: "4a0b0fbdbf6ee365" },
		{ type: "text", start: "There are normally 9 hours of ", sha: "f2ba7a3f396766d9" },
		{ type: "text", start: "\n- ", sha: "4a0b0fbdbf6ee365" },
		{ type: "text", start: "San Francisco experiences mini", sha: "c391613d6ceec08d" },
		{ type: "text", start: "\n\nSo for today, you can expect", sha: "5f217829c19cafcd" },
	] },
};

const STOP: Record<string, StopReason> = {
	end_turn: "stop",
	pause_turn: "stop",
	tool_use: "toolUse",
	max_tokens: "length",
	refusal: "error",
};

const SEEDS = [1, 2, 3, 4, 5];
const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);

function summarize(message: AssistantMessage): ExpectedBlock[] {
	return message.content.map((block): ExpectedBlock => {
		if (block.type === "text") return { type: "text", start: block.text.slice(0, 30), sha: sha(block.text) };
		if (block.type === "thinking") {
			if (block.redacted) return { type: "redacted", signatureSha: sha(block.thinkingSignature ?? "") };
			return { type: "thinking", start: block.thinking.slice(0, 30), sha: sha(block.thinking), signatureSha: sha(block.thinkingSignature ?? "") };
		}
		return { type: "toolCall", id: block.id, name: block.name, arguments: block.arguments };
	});
}

describe("anthropic-messages: recorded captures replayed in random chunks", () => {
	let server: ReplayServer;
	beforeAll(async () => {
		server = await startReplayServer({ chunking: { minChunkBytes: 1, maxChunkBytes: 97 } });
	});
	afterAll(() => server.close());

	it("has an expectation for every capture of the folder", () => {
		expect(listFixtures("anthropic-messages").map((fixture) => fixture.name).sort()).toEqual(Object.keys(EXPECTED).sort());
	});

	for (const [name, expected] of Object.entries(EXPECTED)) {
		it(`${name}: the final message MANIFEST.md implies, identical across seeds`, async () => {
			const bytes = loadFixture("anthropic-messages", name);
			const results: string[] = [];
			for (const seed of SEEDS) {
				server.reset();
				server.enqueue(sseResponse(bytes, { chunking: { seed } }));
				const model = anthropicModel({ baseUrl: server.url });
				const recorded = await recordEvents(streamAnthropic(model, ask(), { apiKey: "sk-ant-test-key-0001" }));
				const { message } = assertEventProtocol(recorded);

				expect(message.stopReason).toBe(STOP[expected.raw]);
				expect(message.rawStopReason).toBe(expected.raw);
				expect(message.responseId).toBe(expected.responseId);
				expect(message.model).toBe("claude-sonnet-4-20250514");
				expect(message.responseModel).toBe(expected.responseModel);
				const { input, output, cacheRead, cacheWrite } = expected.usage;
				expect(message.usage).toMatchObject({ input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite });
				expect(message.usage.cost.total).toBeCloseTo((input * 3 + output * 15 + cacheRead * 0.3 + cacheWrite * 3.75) / 1e6, 12);
				expect(summarize(message)).toEqual(expected.blocks);
				if (message.stopReason !== "error") expect(message.errorMessage).toBeUndefined();
				results.push(JSON.stringify({ ...message, timestamp: 0 }));
			}
			expect(new Set(results).size).toBe(1);
		});
	}

	it("refusal: the error message is the stop_details explanation", async () => {
		server.reset();
		server.enqueue(sseResponse(loadFixture("anthropic-messages", "refusal-stop-details")));
		const message = await streamAnthropic(anthropicModel({ baseUrl: server.url }), ask(), { apiKey: "sk-ant-test-key-0001" }).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/^Refusal: This request was blocked as it seems to violate Anthropic's Terms of Service/);
	});

	it("server-tool input never reaches a client tool call", async () => {
		server.reset();
		server.enqueue(sseResponse(loadFixture("anthropic-messages", "tool-search-then-client-tool")));
		const recorded = await recordEvents(streamAnthropic(anthropicModel({ baseUrl: server.url }), ask(), { apiKey: "sk-ant-test-key-0001" }));
		const deltas = recorded.events.flatMap((event) => (event.type === "toolcall_delta" ? [event.delta] : []));
		expect(deltas.join("")).not.toContain("exchange rate currency");
		expect(JSON.parse(deltas.join(""))).toEqual({ from_currency: "USD", to_currency: "EUR" });
	});
});
