/** Golden request bodies: how each kind of message becomes Gemini `contents`. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import type { Context } from "../../../src/types.js";
import { assistantMessage, capturedBody, geminiModel, toolResult } from "./helpers.js";

const PNG = "iVBORw0KGgo=";
const JPEG = "/9j/4AAQ";

describe("google-generative-ai request: messages", () => {
	let server: ReplayServer;
	beforeAll(async () => {
		server = await startReplayServer();
	});
	afterAll(() => server.close());

	it("sends the system prompt as systemInstruction and user text and images as parts", async () => {
		const context: Context = {
			systemPrompt: "You are terse.",
			messages: [
				{ role: "user", content: "Describe these.", timestamp: 1 },
				{
					role: "user",
					content: [
						{ type: "text", text: "First:" },
						{ type: "image", mimeType: "image/png", data: PNG },
						{ type: "text", text: "" },
						{ type: "image", mimeType: "image/jpeg", data: JPEG },
					],
					timestamp: 1,
				},
			],
		};
		expect(await capturedBody(server, geminiModel(), context)).toEqual({
			systemInstruction: { parts: [{ text: "You are terse." }] },
			// Two user messages in a row become one user turn.
			contents: [
				{
					role: "user",
					parts: [
						{ text: "Describe these." },
						{ text: "First:" },
						{ inlineData: { mimeType: "image/png", data: PNG } },
						{ inlineData: { mimeType: "image/jpeg", data: JPEG } },
					],
				},
			],
		});
	});

	it("replaces images with a note for a text-only model", async () => {
		const context: Context = {
			messages: [{ role: "user", content: [{ type: "image", mimeType: "image/png", data: PNG }], timestamp: 1 }],
		};
		const body = await capturedBody(server, geminiModel("gemini-2.5-flash", { input: ["text"] }), context);
		expect(body).toEqual({
			contents: [{ role: "user", parts: [{ text: "(image omitted: this model does not accept images)" }] }],
		});
	});

	it("replays the same model's thinking, text and calls with their signatures and wire ids", async () => {
		const context: Context = {
			messages: [
				{ role: "user", content: "Weather in Paris?", timestamp: 1 },
				assistantMessage([
					{ type: "thinking", thinking: "Need the tool.", thinkingSignature: "sig-thought" },
					{ type: "text", text: "Checking.", textSignature: "sig-text" },
					{ type: "toolCall", id: "abc123", name: "get_weather", arguments: { city: "Paris" }, thoughtSignature: "sig-call" },
				]),
				toolResult("abc123", "get_weather", [{ type: "text", text: "18°C" }]),
			],
		};
		expect(await capturedBody(server, geminiModel(), context)).toEqual({
			contents: [
				{ role: "user", parts: [{ text: "Weather in Paris?" }] },
				{
					role: "model",
					parts: [
						{ text: "Need the tool.", thought: true, thoughtSignature: "sig-thought" },
						{ text: "Checking.", thoughtSignature: "sig-text" },
						{ functionCall: { id: "abc123", name: "get_weather", args: { city: "Paris" } }, thoughtSignature: "sig-call" },
					],
				},
				{ role: "user", parts: [{ functionResponse: { id: "abc123", name: "get_weather", response: { output: "18°C" } } }] },
			],
		});
	});

	it("does not send ids it generated for id-less calls, nor on their results", async () => {
		const context: Context = {
			messages: [
				{ role: "user", content: "Two secrets", timestamp: 1 },
				assistantMessage([
					{ type: "toolCall", id: "secret_1_a1b2c3d4", name: "secret", arguments: { p: "mellon" }, thoughtSignature: "sig" },
					{ type: "toolCall", id: "secret_2_e5f6g7h8", name: "secret", arguments: { p: "radiance" } },
				]),
				toolResult("secret_1_a1b2c3d4", "secret", [{ type: "text", text: "one" }]),
				toolResult("secret_2_e5f6g7h8", "secret", [{ type: "text", text: "bad password" }], true),
			],
		};
		expect(await capturedBody(server, geminiModel(), context)).toEqual({
			contents: [
				{ role: "user", parts: [{ text: "Two secrets" }] },
				{
					role: "model",
					parts: [
						{ functionCall: { name: "secret", args: { p: "mellon" } }, thoughtSignature: "sig" },
						{ functionCall: { name: "secret", args: { p: "radiance" } } },
					],
				},
				// Consecutive tool results merge into one user turn; an error result uses `error`.
				{
					role: "user",
					parts: [
						{ functionResponse: { name: "secret", response: { output: "one" } } },
						{ functionResponse: { name: "secret", response: { error: "bad password" } } },
					],
				},
			],
		});
	});

	it("replays another model's turn without signatures or ids, its thinking as text", async () => {
		const context: Context = {
			messages: [
				{ role: "user", content: "Hi", timestamp: 1 },
				assistantMessage(
					[
						{ type: "thinking", thinking: "Greet back.", thinkingSignature: "anthropic-sig" },
						{ type: "text", text: "Hello!", textSignature: "msg_1" },
						{ type: "toolCall", id: "toolu_01", name: "lookup", arguments: { q: "x" } },
					],
					{ provider: "anthropic", api: "anthropic-messages", model: "claude-sonnet-4" },
				),
				toolResult("toolu_01", "lookup", [{ type: "text", text: "found" }]),
				{ role: "user", content: "Thanks", timestamp: 4 },
			],
		};
		expect(await capturedBody(server, geminiModel(), context)).toEqual({
			contents: [
				{ role: "user", parts: [{ text: "Hi" }] },
				{ role: "model", parts: [{ text: "Greet back." }, { text: "Hello!" }, { functionCall: { name: "lookup", args: { q: "x" } } }] },
				// The user message after the tool result joins its turn.
				{ role: "user", parts: [{ functionResponse: { name: "lookup", response: { output: "found" } } }, { text: "Thanks" }] },
			],
		});
	});

	it("puts tool-result images after the function responses for models before Gemini 3", async () => {
		const context: Context = {
			messages: [
				{ role: "user", content: "Screenshots", timestamp: 1 },
				assistantMessage([
					{ type: "toolCall", id: "c1", name: "shot", arguments: {} },
					{ type: "toolCall", id: "c2", name: "shot", arguments: {} },
				]),
				toolResult("c1", "shot", [
					{ type: "text", text: "page 1" },
					{ type: "image", mimeType: "image/png", data: PNG },
				]),
				toolResult("c2", "shot", [
					{ type: "image", mimeType: "image/png", data: PNG },
					{ type: "image", mimeType: "image/jpeg", data: JPEG },
				]),
			],
		};
		expect(await capturedBody(server, geminiModel("gemini-2.5-flash"), context)).toEqual({
			contents: [
				{ role: "user", parts: [{ text: "Screenshots" }] },
				{ role: "model", parts: [{ functionCall: { id: "c1", name: "shot", args: {} } }, { functionCall: { id: "c2", name: "shot", args: {} } }] },
				{
					role: "user",
					parts: [
						{ functionResponse: { id: "c1", name: "shot", response: { output: "page 1" } } },
						{ functionResponse: { id: "c2", name: "shot", response: { output: "(2 images attached)" } } },
						{ text: 'The "shot" tool returned this image:' },
						{ inlineData: { mimeType: "image/png", data: PNG } },
						{ text: 'The "shot" tool returned these images:' },
						{ inlineData: { mimeType: "image/png", data: PNG } },
						{ inlineData: { mimeType: "image/jpeg", data: JPEG } },
					],
				},
			],
		});
	});

	it("nests tool-result images in functionResponse.parts on Gemini 3", async () => {
		const model = geminiModel("gemini-3-pro-preview");
		const context: Context = {
			messages: [
				{ role: "user", content: "Screenshot", timestamp: 1 },
				assistantMessage([{ type: "toolCall", id: "c1", name: "shot", arguments: {}, thoughtSignature: "sig-3" }], { model: "gemini-3-pro-preview" }),
				toolResult("c1", "shot", [
					{ type: "text", text: "done" },
					{ type: "image", mimeType: "image/png", data: PNG },
				]),
			],
		};
		expect(await capturedBody(server, model, context)).toEqual({
			contents: [
				{ role: "user", parts: [{ text: "Screenshot" }] },
				{ role: "model", parts: [{ functionCall: { id: "c1", name: "shot", args: {} }, thoughtSignature: "sig-3" }] },
				{
					role: "user",
					parts: [
						{
							functionResponse: {
								id: "c1",
								name: "shot",
								response: { output: "done" },
								parts: [{ inlineData: { mimeType: "image/png", data: PNG } }],
							},
						},
					],
				},
			],
		});
	});

	it("gives unsigned calls of the current turn Google's skip signature on Gemini 3, and only there", async () => {
		const model = geminiModel("gemini-3-pro-preview");
		const context: Context = {
			messages: [
				{ role: "user", content: "Earlier question", timestamp: 1 },
				assistantMessage([{ type: "toolCall", id: "old", name: "lookup", arguments: {} }], { provider: "openai", api: "openai-responses", model: "gpt-5" }),
				toolResult("old", "lookup", [{ type: "text", text: "r0" }]),
				{ role: "user", content: "Now this", timestamp: 4 },
				// Another model's parallel calls: only the first call of the step needs the signature.
				assistantMessage(
					[
						{ type: "toolCall", id: "call_1", name: "lookup", arguments: { n: 1 } },
						{ type: "toolCall", id: "call_2", name: "lookup", arguments: { n: 2 } },
					],
					{ provider: "openai", api: "openai-responses", model: "gpt-5" },
				),
				toolResult("call_1", "lookup", [{ type: "text", text: "r1" }]),
				toolResult("call_2", "lookup", [{ type: "text", text: "r2" }]),
				// The same model's step with its real signature keeps it.
				assistantMessage([{ type: "toolCall", id: "g1", name: "lookup", arguments: { n: 3 }, thoughtSignature: "real-sig" }], {
					model: "gemini-3-pro-preview",
				}),
				toolResult("g1", "lookup", [{ type: "text", text: "r3" }]),
			],
		};
		expect(await capturedBody(server, model, context)).toEqual({
			contents: [
				{ role: "user", parts: [{ text: "Earlier question" }] },
				// An earlier turn is not validated by the API and stays unsigned.
				{ role: "model", parts: [{ functionCall: { name: "lookup", args: {} } }] },
				{ role: "user", parts: [{ functionResponse: { name: "lookup", response: { output: "r0" } } }, { text: "Now this" }] },
				{
					role: "model",
					parts: [
						{ functionCall: { name: "lookup", args: { n: 1 } }, thoughtSignature: "skip_thought_signature_validator" },
						{ functionCall: { name: "lookup", args: { n: 2 } } },
					],
				},
				{
					role: "user",
					parts: [
						{ functionResponse: { name: "lookup", response: { output: "r1" } } },
						{ functionResponse: { name: "lookup", response: { output: "r2" } } },
					],
				},
				{ role: "model", parts: [{ functionCall: { id: "g1", name: "lookup", args: { n: 3 } }, thoughtSignature: "real-sig" }] },
				{ role: "user", parts: [{ functionResponse: { id: "g1", name: "lookup", response: { output: "r3" } } }] },
			],
		});
	});

	it("does not add skip signatures for models before Gemini 3", async () => {
		const context: Context = {
			messages: [
				{ role: "user", content: "Go", timestamp: 1 },
				assistantMessage([{ type: "toolCall", id: "call_1", name: "lookup", arguments: {} }], { provider: "openai", api: "openai-responses", model: "gpt-5" }),
				toolResult("call_1", "lookup", [{ type: "text", text: "r1" }]),
			],
		};
		const body = (await capturedBody(server, geminiModel("gemini-2.5-pro"), context)) as { contents: { parts: object[] }[] };
		expect(body.contents[1]).toEqual({ role: "model", parts: [{ functionCall: { name: "lookup", args: {} } }] });
	});

	it("closes a failed reply's calls with an error result and drops its unsigned thinking", async () => {
		const context: Context = {
			messages: [
				{ role: "user", content: "Go", timestamp: 1 },
				assistantMessage(
					[
						{ type: "thinking", thinking: "partial thought" },
						{ type: "text", text: "Partial answer" },
						{ type: "toolCall", id: "w1", name: "write", arguments: { path: "a" } },
					],
					{ stopReason: "aborted" },
				),
				{ role: "user", content: "Try again", timestamp: 3 },
			],
		};
		expect(await capturedBody(server, geminiModel(), context)).toEqual({
			contents: [
				{ role: "user", parts: [{ text: "Go" }] },
				{ role: "model", parts: [{ text: "Partial answer" }, { functionCall: { id: "w1", name: "write", args: { path: "a" } } }] },
				{
					role: "user",
					parts: [
						{ functionResponse: { id: "w1", name: "write", response: { error: "This tool call was not executed: the assistant's reply was interrupted." } } },
						{ text: "Try again" },
					],
				},
			],
		});
	});
});
