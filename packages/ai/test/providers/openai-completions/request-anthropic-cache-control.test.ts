import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import type { CacheRetention, Context, Model, Tool } from "../../../src/types.js";
import { assistant, capture, completionsModel, PIXEL, toolResult, user } from "./helpers.js";

/**
 * `compat.cacheControlFormat: "anthropic"`: Anthropic `cache_control` breakpoints on the system
 * message, the last tool and the last user or assistant text. Detected for Claude on OpenRouter.
 */

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

const CLAUDE = completionsModel({ id: "anthropic/claude-sonnet-4.5", provider: "openrouter", baseUrl: "https://openrouter.ai/api/v1", reasoning: false });
const SCHEMA = { type: "object", properties: {} };
const TOOLS = [
	{ name: "first", description: "One", parameters: SCHEMA },
	{ name: "second", description: "Two", parameters: SCHEMA },
] as unknown as Tool[];

const context = (messages: Context["messages"]): Context => ({ systemPrompt: "Be brief.", messages, tools: TOOLS });

async function body(model: Model<"openai-completions">, ctx: Context, cacheRetention?: CacheRetention) {
	const { request } = await capture(server, model, ctx, { apiKey: "sk-test", ...(cacheRetention ? { cacheRetention } : {}) });
	return request.json as { messages: unknown[]; tools: unknown[] };
}

const EPHEMERAL = { type: "ephemeral" };
const tool = (name: string, description: string, extra: Record<string, unknown> = {}) => ({
	type: "function",
	function: { name, description, parameters: SCHEMA },
	...extra,
});

describe("compat.cacheControlFormat: anthropic", () => {
	it("detected for anthropic/… on OpenRouter: system, last tool and last user message get a breakpoint", async () => {
		expect(await body(CLAUDE, context([user("Hi"), assistant([{ type: "text", text: "Hello." }], CLAUDE), user("Again")]))).toEqual({
			model: "anthropic/claude-sonnet-4.5",
			stream: true,
			stream_options: { include_usage: true },
			messages: [
				{ role: "system", content: [{ type: "text", text: "Be brief.", cache_control: EPHEMERAL }] },
				{ role: "user", content: "Hi" },
				{ role: "assistant", content: "Hello." },
				{ role: "user", content: [{ type: "text", text: "Again", cache_control: EPHEMERAL }] },
			],
			tools: [tool("first", "One"), tool("second", "Two", { cache_control: EPHEMERAL })],
		});
	});

	it("long retention asks for the 1-hour TTL; none marks nothing", async () => {
		const long = await body(CLAUDE, context([user("Hi")]), "long");
		expect(long.messages).toEqual([
			{ role: "system", content: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral", ttl: "1h" } }] },
			{ role: "user", content: [{ type: "text", text: "Hi", cache_control: { type: "ephemeral", ttl: "1h" } }] },
		]);
		const noLongTtl = await body({ ...CLAUDE, compat: { supportsLongCacheRetention: false } }, context([user("Hi")]), "long");
		expect(noLongTtl.messages[1]).toEqual({ role: "user", content: [{ type: "text", text: "Hi", cache_control: EPHEMERAL }] });
		const none = await body(CLAUDE, context([user("Hi")]), "none");
		expect(none.messages).toEqual([
			{ role: "system", content: "Be brief." },
			{ role: "user", content: "Hi" },
		]);
		expect(none.tools).toEqual([tool("first", "One"), tool("second", "Two")]);
	});

	it("the breakpoint goes on the last text: past tool messages, onto the last text part of a message with images", async () => {
		const model = { ...CLAUDE, input: ["text", "image"] as ("text" | "image")[] };
		const messages = [
			user([
				{ type: "text" as const, text: "Look:" },
				{ type: "image" as const, data: PIXEL, mimeType: "image/png" },
			]),
			assistant([{ type: "text", text: "Checking." }, { type: "toolCall", id: "call_1", name: "first", arguments: {} }], model, "toolUse"),
			toolResult("call_1", "first", [{ type: "text", text: "done" }]),
		];
		const { messages: wire } = await body(model, context(messages));
		expect(wire.slice(2)).toEqual([
			{
				role: "assistant",
				content: [{ type: "text", text: "Checking.", cache_control: EPHEMERAL }],
				tool_calls: [{ id: "call_1", type: "function", function: { name: "first", arguments: "{}" } }],
			},
			{ role: "tool", tool_call_id: "call_1", content: "done" },
		]);
		// Only one conversation breakpoint: the user message before keeps its parts unmarked.
		expect(wire[1]).toEqual({ role: "user", content: [{ type: "text", text: "Look:" }, { type: "image_url", image_url: { url: `data:image/png;base64,${PIXEL}` } }] });
	});

	it("set on any server, it applies there; unset elsewhere, nothing is marked", async () => {
		const proxy = completionsModel({ id: "claude-sonnet-4-5", provider: "litellm", baseUrl: "https://llm.example/v1" });
		const marked = await body({ ...proxy, compat: { cacheControlFormat: "anthropic" } }, context([user("Hi")]));
		expect(marked.messages[1]).toEqual({ role: "user", content: [{ type: "text", text: "Hi", cache_control: EPHEMERAL }] });
		const plain = await body(proxy, context([user("Hi")]));
		expect(plain.messages).toEqual([
			{ role: "system", content: "Be brief." },
			{ role: "user", content: "Hi" },
		]);
		expect(plain.tools).toEqual([tool("first", "One"), tool("second", "Two")]);
	});

	it("OpenRouter models of other vendors are not marked", async () => {
		const gpt = { ...CLAUDE, id: "openai/gpt-4o" };
		const { messages } = await body(gpt, context([user("Hi")]));
		expect(messages).toEqual([
			{ role: "system", content: "Be brief." },
			{ role: "user", content: "Hi" },
		]);
	});
});
