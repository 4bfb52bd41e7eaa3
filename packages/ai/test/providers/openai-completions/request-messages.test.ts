import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import { IMAGE_OMITTED_TEXT } from "../../../src/transform-messages.js";
import type { Context, Model } from "../../../src/types.js";
import { assistant, capture, FLAVOURS, type Flavour, PIXEL, toolResult, user } from "./helpers.js";

/**
 * Golden request bodies for every kind of message, per compat flavour: the body the server
 * recorded is compared whole with an explicit expected object.
 */

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

/** One transcript with every kind of message; the assistant turn is the target model's own. */
function transcript(model: Model<"openai-completions">): Context {
	return {
		systemPrompt: "You are terse.",
		messages: [
			user("What is in this picture, and what is the weather?"),
			user([
				{ type: "text", text: "Here it is:" },
				{ type: "image", data: PIXEL, mimeType: "image/png" },
			]),
			assistant(
				[
					{ type: "thinking", thinking: "The user wants two things." },
					{ type: "text", text: "Let me check." },
					{ type: "toolCall", id: "call_weather_1", name: "get_weather", arguments: { city: "Paris" } },
					{ type: "toolCall", id: "call_camera_2", name: "take_photo", arguments: {} },
				],
				model,
				"toolUse",
			),
			toolResult("call_weather_1", "get_weather", [{ type: "text", text: "18°C, cloudy" }]),
			toolResult("call_camera_2", "take_photo", [{ type: "image", data: PIXEL, mimeType: "image/png" }]),
			user("Thanks. Summarize."),
		],
	};
}

const DATA_URL = `data:image/png;base64,${PIXEL}`;
const IMAGE = { type: "image_url", image_url: { url: DATA_URL } };
const QUESTION = { role: "user", content: "What is in this picture, and what is the weather?" };
const PICTURE = { role: "user", content: [{ type: "text", text: "Here it is:" }, IMAGE] };
const PICTURE_OMITTED = { role: "user", content: `Here it is:\n${IMAGE_OMITTED_TEXT}` };
const FOLLOW_UP = { role: "user", content: "Thanks. Summarize." };
const calls = (weatherId: string, cameraId: string) => [
	{ id: weatherId, type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
	{ id: cameraId, type: "function", function: { name: "take_photo", arguments: "{}" } },
];
const imagesOf = (id: string) => ({
	role: "user",
	content: [{ type: "text", text: `The following image(s) belong to the result of tool call ${id} (take_photo):` }, IMAGE],
});
const IMAGES_ONLY = "(The result is the image(s) in the next message.)";

const GOLDEN: Record<Flavour, Record<string, unknown>> = {
	// OpenAI reasoning model: developer role; OpenAI returns no reasoning text, so none is replayed.
	openai: {
		model: "o4-mini",
		stream: true,
		stream_options: { include_usage: true },
		store: false,
		messages: [
			{ role: "developer", content: "You are terse." },
			QUESTION,
			PICTURE,
			{ role: "assistant", content: "Let me check.", tool_calls: calls("call_weather_1", "call_camera_2") },
			{ role: "tool", tool_call_id: "call_weather_1", content: "18°C, cloudy" },
			{ role: "tool", tool_call_id: "call_camera_2", content: IMAGES_ONLY },
			imagesOf("call_camera_2"),
			FOLLOW_UP,
		],
	},
	// Groq rejects reasoning on assistant messages; the test model is text-only, so images become notes.
	groq: {
		model: "openai/gpt-oss-120b",
		stream: true,
		stream_options: { include_usage: true },
		messages: [
			{ role: "system", content: "You are terse." },
			QUESTION,
			PICTURE_OMITTED,
			{ role: "assistant", content: "Let me check.", tool_calls: calls("call_weather_1", "call_camera_2") },
			{ role: "tool", tool_call_id: "call_weather_1", content: "18°C, cloudy" },
			{ role: "tool", tool_call_id: "call_camera_2", content: IMAGE_OMITTED_TEXT },
			FOLLOW_UP,
		],
	},
	deepseek: {
		model: "deepseek-reasoner",
		stream: true,
		stream_options: { include_usage: true },
		messages: [
			{ role: "system", content: "You are terse." },
			QUESTION,
			PICTURE_OMITTED,
			{
				role: "assistant",
				content: "Let me check.",
				reasoning_content: "The user wants two things.",
				tool_calls: calls("call_weather_1", "call_camera_2"),
			},
			{ role: "tool", tool_call_id: "call_weather_1", content: "18°C, cloudy" },
			{ role: "tool", tool_call_id: "call_camera_2", content: IMAGE_OMITTED_TEXT },
			FOLLOW_UP,
		],
	},
	// Mistral: thinking as content parts, 9-character ids, `name` on tool results, and an
	// assistant turn between the tool results and the user message carrying the images.
	mistral: {
		model: "magistral-medium-2507",
		stream: true,
		messages: [
			{ role: "system", content: "You are terse." },
			QUESTION,
			PICTURE,
			{
				role: "assistant",
				content: [
					{ type: "thinking", thinking: [{ type: "text", text: "The user wants two things." }] },
					{ type: "text", text: "Let me check." },
				],
				tool_calls: calls("16k2abm06", "0fcmawo1y"),
			},
			{ role: "tool", tool_call_id: "16k2abm06", content: "18°C, cloudy", name: "get_weather" },
			{ role: "tool", tool_call_id: "0fcmawo1y", content: IMAGES_ONLY, name: "take_photo" },
			{ role: "assistant", content: "I have the tool results." },
			imagesOf("0fcmawo1y"),
			FOLLOW_UP,
		],
	},
	openrouter: {
		model: "openai/gpt-5",
		stream: true,
		stream_options: { include_usage: true },
		messages: [
			{ role: "system", content: "You are terse." },
			QUESTION,
			PICTURE,
			{
				role: "assistant",
				content: "Let me check.",
				reasoning: "The user wants two things.",
				tool_calls: calls("call_weather_1", "call_camera_2"),
			},
			{ role: "tool", tool_call_id: "call_weather_1", content: "18°C, cloudy" },
			{ role: "tool", tool_call_id: "call_camera_2", content: IMAGES_ONLY },
			imagesOf("call_camera_2"),
			FOLLOW_UP,
		],
	},
	ollama: {
		model: "gpt-oss:20b",
		stream: true,
		stream_options: { include_usage: true },
		messages: [
			{ role: "system", content: "You are terse." },
			QUESTION,
			PICTURE_OMITTED,
			{
				role: "assistant",
				content: "Let me check.",
				reasoning: "The user wants two things.",
				tool_calls: calls("call_weather_1", "call_camera_2"),
			},
			{ role: "tool", tool_call_id: "call_weather_1", content: "18°C, cloudy" },
			{ role: "tool", tool_call_id: "call_camera_2", content: IMAGE_OMITTED_TEXT },
			FOLLOW_UP,
		],
	},
};

describe("golden request bodies: every kind of message, per compat flavour", () => {
	for (const flavour of Object.keys(GOLDEN) as Flavour[]) {
		it(flavour, async () => {
			const model = FLAVOURS[flavour];
			const { request } = await capture(server, model, transcript(model), { apiKey: "sk-test" });
			expect(request.path).toBe("/v1/chat/completions");
			expect(request.json).toEqual(GOLDEN[flavour]);
		});
	}
});

describe("golden request bodies: assistant history from elsewhere", () => {
	it("another model's thinking is replayed as text, never as reasoning_content (DeepSeek gets it empty)", async () => {
		const model = FLAVOURS.deepseek;
		const other = { id: "claude-sonnet-4-20250514", api: "anthropic-messages", provider: "anthropic" };
		const context: Context = {
			messages: [
				user("Hi"),
				assistant(
					[
						{ type: "thinking", thinking: "Greeting back.", thinkingSignature: "sig-abc" },
						{ type: "text", text: "Hello!" },
					],
					other,
				),
				user("Again"),
			],
		};
		const { request } = await capture(server, model, context, { apiKey: "sk-test" });
		expect(request.json).toEqual({
			model: "deepseek-reasoner",
			stream: true,
			stream_options: { include_usage: true },
			messages: [
				{ role: "user", content: "Hi" },
				// DeepSeek requires the field on every assistant message, so it is there, empty.
				{ role: "assistant", content: "Greeting back.\nHello!", reasoning_content: "" },
				{ role: "user", content: "Again" },
			],
		});
	});

	it("ids from other APIs are made valid: a Responses call_id|item_id keeps its call id, a long id is shortened", async () => {
		const model = FLAVOURS.openai;
		const responses = { id: "gpt-5", api: "openai-responses", provider: "openai" };
		const longId = `toolu_${"x".repeat(60)}`;
		const context: Context = {
			messages: [
				user("Go"),
				assistant(
					[
						{ type: "toolCall", id: "call_R1|fc_68a0ffee", name: "a", arguments: {} },
						{ type: "toolCall", id: longId, name: "b", arguments: { n: 1 } },
					],
					responses,
					"toolUse",
				),
				toolResult("call_R1|fc_68a0ffee", "a", [{ type: "text", text: "A" }]),
				toolResult(longId, "b", [{ type: "text", text: "B" }]),
			],
		};
		const { request } = await capture(server, model, context, { apiKey: "sk-test" });
		const body = request.json as { messages: { tool_calls?: { id: string }[]; tool_call_id?: string }[] };
		const ids = body.messages[1]?.tool_calls?.map((call) => call.id) ?? [];
		expect(ids[0]).toBe("call_R1");
		expect(ids[1]).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
		expect(ids[1]).not.toBe(longId);
		expect(body.messages.slice(2).map((message) => message.tool_call_id)).toEqual(ids);
	});

	it("a same-model reply with only reasoning keeps an empty content next to its reasoning_content", async () => {
		const model = FLAVOURS.deepseek;
		const context: Context = {
			messages: [user("Hi"), assistant([{ type: "thinking", thinking: "Cut short" }], model, "length"), user("Go on")],
		};
		const { request } = await capture(server, model, context, { apiKey: "sk-test" });
		expect((request.json as { messages: unknown[] }).messages).toEqual([
			{ role: "user", content: "Hi" },
			{ role: "assistant", content: "", reasoning_content: "Cut short" },
			{ role: "user", content: "Go on" },
		]);
	});

	it("a same-model reply with only thinking is dropped where the server cannot take reasoning back", async () => {
		const model = FLAVOURS.groq;
		const context: Context = {
			messages: [user("Hi"), assistant([{ type: "thinking", thinking: "Cut short" }], model, "length"), user("Go on")],
		};
		const { request } = await capture(server, model, context, { apiKey: "sk-test" });
		expect((request.json as { messages: unknown[] }).messages).toEqual([
			{ role: "user", content: "Hi" },
			{ role: "user", content: "Go on" },
		]);
	});

	it("tool results with text and images: the text stays in the tool message, the images follow the whole run", async () => {
		const model = FLAVOURS.openai;
		const context: Context = {
			messages: [
				user("Shoot twice"),
				assistant(
					[
						{ type: "toolCall", id: "call_1", name: "shoot", arguments: {} },
						{ type: "toolCall", id: "call_2", name: "shoot", arguments: {} },
					],
					model,
					"toolUse",
				),
				toolResult("call_1", "shoot", [
					{ type: "text", text: "first" },
					{ type: "image", data: PIXEL, mimeType: "image/png" },
				]),
				toolResult("call_2", "shoot", [{ type: "image", data: "R0lGOD", mimeType: "image/gif" }], true),
			],
		};
		const { request } = await capture(server, model, context, { apiKey: "sk-test" });
		expect((request.json as { messages: unknown[] }).messages).toEqual([
			{ role: "user", content: "Shoot twice" },
			{
				role: "assistant",
				content: null,
				tool_calls: [
					{ id: "call_1", type: "function", function: { name: "shoot", arguments: "{}" } },
					{ id: "call_2", type: "function", function: { name: "shoot", arguments: "{}" } },
				],
			},
			{ role: "tool", tool_call_id: "call_1", content: "first" },
			{ role: "tool", tool_call_id: "call_2", content: IMAGES_ONLY },
			{
				role: "user",
				content: [
					{ type: "text", text: "The following image(s) belong to the result of tool call call_1 (shoot):" },
					IMAGE,
					{ type: "text", text: "The following image(s) belong to the result of tool call call_2 (shoot):" },
					{ type: "image_url", image_url: { url: "data:image/gif;base64,R0lGOD" } },
				],
			},
		]);
	});
});
