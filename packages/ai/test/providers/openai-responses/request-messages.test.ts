/**
 * Golden request bodies: how each kind of message becomes Responses `input` items, recorded by a
 * real local server and compared with explicit expected objects.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import type { AssistantMessage, Context, Message } from "../../../src/types.js";
import { captureRequest, responsesModel } from "./helpers.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(async () => {
	await server.close();
});

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

function assistant(content: AssistantMessage["content"], from: Partial<AssistantMessage> = {}): AssistantMessage {
	return { role: "assistant", content, api: "openai-responses", provider: "openai", model: "gpt-5", usage, stopReason: "toolUse", timestamp: 2, ...from };
}

const ENCRYPTED_ITEM = { id: "rs_1", type: "reasoning", encrypted_content: "gAAAA-secret", summary: [{ type: "summary_text", text: "Plan" }] };
const BARE_ITEM = { id: "rs_2", type: "reasoning", summary: [{ type: "summary_text", text: "Plan" }] };

describe("request body: messages", () => {
	it("sends the system prompt as instructions, and user text and images as input parts", async () => {
		const context: Context = {
			systemPrompt: "You are terse.",
			messages: [
				{ role: "user", content: "Plain string", timestamp: 1 },
				{
					role: "user",
					content: [
						{ type: "text", text: "What is this?" },
						{ type: "image", data: PNG, mimeType: "image/png" },
					],
					timestamp: 2,
				},
			],
		};
		const { body, path } = await captureRequest(server, context);
		expect(path).toBe("/v1/responses");
		expect(body).toEqual({
			model: "gpt-5",
			stream: true,
			store: false,
			instructions: "You are terse.",
			input: [
				{ role: "user", content: [{ type: "input_text", text: "Plain string" }] },
				{
					role: "user",
					content: [
						{ type: "input_text", text: "What is this?" },
						{ type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "auto" },
					],
				},
			],
		});
	});

	it("replays the same model's text, reasoning and calls as its own items, with ids and phase", async () => {
		const messages: Message[] = [
			{ role: "user", content: "Capital of France?", timestamp: 1 },
			assistant([
				{ type: "thinking", thinking: "Plan", thinkingSignature: JSON.stringify(ENCRYPTED_ITEM) },
				{ type: "text", text: "Let me look.", textSignature: '{"id":"msg_1","phase":"commentary"}' },
				{ type: "toolCall", id: "call_A|fc_A", name: "get_capital", arguments: { country: "France" } },
			]),
			{ role: "toolResult", toolCallId: "call_A|fc_A", toolName: "get_capital", content: [{ type: "text", text: "Paris" }], isError: false, timestamp: 3 },
			assistant([{ type: "text", text: "Paris.", textSignature: "msg_2" }], { stopReason: "stop" }),
		];
		const { body } = await captureRequest(server, { messages });
		expect(body.input).toEqual([
			{ role: "user", content: [{ type: "input_text", text: "Capital of France?" }] },
			ENCRYPTED_ITEM,
			{ type: "message", role: "assistant", id: "msg_1", status: "completed", phase: "commentary", content: [{ type: "output_text", text: "Let me look.", annotations: [] }] },
			{ type: "function_call", id: "fc_A", call_id: "call_A", name: "get_capital", arguments: '{"country":"France"}' },
			{ type: "function_call_output", call_id: "call_A", output: "Paris" },
			// A bare item id (as other libraries store it) is still replayed as the item.
			{ type: "message", role: "assistant", id: "msg_2", status: "completed", content: [{ type: "output_text", text: "Paris.", annotations: [] }] },
		]);
	});

	it("turns another model's thinking into text and drops its item ids and signatures", async () => {
		const messages: Message[] = [
			{ role: "user", content: "Hi", timestamp: 1 },
			assistant(
				[
					{ type: "thinking", thinking: "Claude thinks", thinkingSignature: "sig-anthropic" },
					{ type: "text", text: "Calling.", textSignature: '{"id":"msg_9"}' },
					{ type: "toolCall", id: "toolu_01", name: "lookup", arguments: {} },
				],
				{ api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5" },
			),
			{ role: "toolResult", toolCallId: "toolu_01", toolName: "lookup", content: [{ type: "text", text: "ok" }], isError: false, timestamp: 3 },
			// Same API, another OpenAI model: its fc_ item id would need a reasoning item this request lacks.
			assistant([{ type: "toolCall", id: "call_B|fc_B", name: "lookup", arguments: { q: 1 } }], { model: "gpt-4o" }),
			{ role: "toolResult", toolCallId: "call_B|fc_B", toolName: "lookup", content: [{ type: "text", text: "done" }], isError: true, timestamp: 4 },
		];
		const { body } = await captureRequest(server, { messages });
		expect(body.input).toEqual([
			{ role: "user", content: [{ type: "input_text", text: "Hi" }] },
			{ role: "assistant", content: "Claude thinks" },
			{ role: "assistant", content: "Calling." },
			{ type: "function_call", call_id: "toolu_01", name: "lookup", arguments: "{}" },
			{ type: "function_call_output", call_id: "toolu_01", output: "ok" },
			{ type: "function_call", call_id: "call_B", name: "lookup", arguments: '{"q":1}' },
			{ type: "function_call_output", call_id: "call_B", output: "done" },
		]);
	});

	it("drops the same model's reasoning that a stateless request cannot carry, and keeps it when stored", async () => {
		const messages: Message[] = [
			{ role: "user", content: "Hi", timestamp: 1 },
			assistant(
				[
					{ type: "thinking", thinking: "Plan", thinkingSignature: JSON.stringify(BARE_ITEM) },
					{ type: "thinking", thinking: "No signature at all" },
					{ type: "text", text: "Hello!" },
				],
				{ stopReason: "stop" },
			),
		];
		const stateless = await captureRequest(server, { messages });
		expect(stateless.body.input).toEqual([
			{ role: "user", content: [{ type: "input_text", text: "Hi" }] },
			{ role: "assistant", content: "Hello!" },
		]);
		const stored = await captureRequest(server, { messages }, { store: true });
		expect(stored.body.store).toBe(true);
		expect(stored.body.input).toEqual([
			{ role: "user", content: [{ type: "input_text", text: "Hi" }] },
			BARE_ITEM,
			{ role: "assistant", content: "Hello!" },
		]);
	});

	it("replays raw reasoning text items of compatible servers (LM Studio, DeepSeek) even when stateless", async () => {
		const item = { id: "rs_lm", type: "reasoning", status: "completed", summary: [], content: [{ type: "reasoning_text", text: "Think." }] };
		const model = responsesModel(server, { id: "zai-org/glm-4.7-flash", provider: "lmstudio" });
		const messages: Message[] = [
			{ role: "user", content: "Hi", timestamp: 1 },
			assistant([{ type: "thinking", thinking: "Think.", thinkingSignature: JSON.stringify(item) }, { type: "text", text: "Hey" }], {
				provider: "lmstudio",
				model: "zai-org/glm-4.7-flash",
				stopReason: "stop",
			}),
		];
		const { body, headers } = await captureRequest(server, { messages }, { apiKey: undefined }, model);
		expect(headers.authorization).toBeUndefined();
		expect(body.input).toEqual([{ role: "user", content: [{ type: "input_text", text: "Hi" }] }, item, { role: "assistant", content: "Hey" }]);
	});

	it("sends tool results with images as a list of input_text and input_image parts", async () => {
		const messages: Message[] = [
			{ role: "user", content: "Screenshot please", timestamp: 1 },
			assistant([{ type: "toolCall", id: "call_S|fc_S", name: "screenshot", arguments: {} }]),
			{
				role: "toolResult",
				toolCallId: "call_S|fc_S",
				toolName: "screenshot",
				content: [
					{ type: "text", text: "Here it is" },
					{ type: "image", data: PNG, mimeType: "image/png" },
				],
				isError: false,
				timestamp: 3,
			},
		];
		const { body } = await captureRequest(server, { messages });
		expect(body.input).toEqual([
			{ role: "user", content: [{ type: "input_text", text: "Screenshot please" }] },
			{ type: "function_call", id: "fc_S", call_id: "call_S", name: "screenshot", arguments: "{}" },
			{
				type: "function_call_output",
				call_id: "call_S",
				output: [
					{ type: "input_text", text: "Here it is" },
					{ type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "auto" },
				],
			},
		]);
	});

	it("replaces images with a note for a text-only model and shortens over-long call ids", async () => {
		const longId = `call_${"x".repeat(80)}`;
		const model = responsesModel(server, { id: "gpt-3.5-turbo", reasoning: false, input: ["text"] });
		const messages: Message[] = [
			{ role: "user", content: [{ type: "image", data: PNG, mimeType: "image/png" }], timestamp: 1 },
			assistant([{ type: "toolCall", id: longId, name: "t", arguments: {} }], { provider: "other", api: "openai-completions", model: "m" }),
			{ role: "toolResult", toolCallId: longId, toolName: "t", content: [{ type: "text", text: "r" }], isError: false, timestamp: 3 },
		];
		const { body } = await captureRequest(server, { messages }, {}, model);
		const input = body.input as Record<string, unknown>[];
		expect(input[0]).toEqual({ role: "user", content: [{ type: "input_text", text: "(image omitted: this model does not accept images)" }] });
		const callId = input[1]?.call_id as string;
		expect(callId.length).toBeLessThanOrEqual(64);
		expect(callId).toMatch(/^[A-Za-z0-9_-]+$/);
		expect(input[2]).toEqual({ type: "function_call_output", call_id: callId, output: "r" });
	});
});
