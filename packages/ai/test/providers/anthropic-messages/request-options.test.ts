import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import type { Tool } from "../../../src/types.js";
import { useCapture } from "./capture.js";
import { ask, providerHeaders } from "./helpers.js";

/** Golden request bodies and headers for tools, settings, headers and onPayload. */
const server = useCapture();
const { capture } = server;
const noCache = { cacheRetention: "none" } as const;

const weather: Tool = {
	name: "get_weather",
	description: "Weather for a place",
	parameters: Type.Object(
		{ city: Type.String(), unit: Type.Optional(Type.Union([Type.Literal("c"), Type.Literal("f")])) },
		{ additionalProperties: false },
	),
};

/** A plain JSON Schema, e.g. from an MCP server, with `$defs`, `$ref`, `anyOf` and `additionalProperties`. */
const plainSchema = {
	type: "object",
	$defs: { point: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] } },
	properties: {
		from: { $ref: "#/$defs/point" },
		to: { anyOf: [{ $ref: "#/$defs/point" }, { type: "null" }] },
		tags: { type: "object", additionalProperties: { type: "string" } },
	},
	required: ["from"],
	additionalProperties: false,
};
const route = { name: "route", description: "", parameters: plainSchema } as unknown as Tool;

describe("anthropic-messages request: tools and settings", () => {
	it("sends tools with their whole schema (and fine-grained input streaming)", async () => {
		const { body } = await capture(ask("Go", { tools: [weather, route] }), noCache);
		expect(body.tools).toEqual([
			{
				name: "get_weather",
				description: "Weather for a place",
				eager_input_streaming: true,
				input_schema: {
					type: "object",
					required: ["city"],
					properties: { city: { type: "string" }, unit: { anyOf: [{ const: "c", type: "string" }, { const: "f", type: "string" }] } },
					additionalProperties: false,
				},
			},
			{ name: "route", description: "", eager_input_streaming: true, input_schema: plainSchema },
		]);
		expect(body.tool_choice).toBeUndefined();
	});

	it("gives a schema without a type the object type the API requires", async () => {
		const bare = { name: "ping", description: "Ping", parameters: { properties: {} } } as unknown as Tool;
		const { body } = await capture(ask("Go", { tools: [bare] }), noCache);
		expect(body.tools).toEqual([{ name: "ping", description: "Ping", eager_input_streaming: true, input_schema: { type: "object", properties: {} } }]);
	});

	it.each([
		["auto", { type: "auto" }],
		["any", { type: "any" }],
		["none", { type: "none" }],
		[{ type: "tool", name: "get_weather" }, { type: "tool", name: "get_weather" }],
	] as const)("sends toolChoice %j as %j", async (toolChoice, expected) => {
		const { body } = await capture(ask("Go", { tools: [weather] }), { ...noCache, toolChoice });
		expect(body.tool_choice).toEqual(expected);
	});

	it("sends no tools and no tool_choice when the context has no tools", async () => {
		const { body } = await capture(ask("Go", { tools: [] }), { ...noCache, toolChoice: "any" });
		expect(body).toEqual({
			model: "claude-sonnet-4-20250514",
			max_tokens: 32000,
			stream: true,
			messages: [{ role: "user", content: [{ type: "text", text: "Go" }] }],
		});
	});

	it("sends temperature, maxTokens and metadata.user_id", async () => {
		const { body } = await capture(ask("Go"), { ...noCache, temperature: 0.2, maxTokens: 1234, metadata: { user_id: "user-42", other: "x" } });
		expect(body).toEqual({
			model: "claude-sonnet-4-20250514",
			max_tokens: 1234,
			stream: true,
			messages: [{ role: "user", content: [{ type: "text", text: "Go" }] }],
			temperature: 0.2,
			metadata: { user_id: "user-42" },
		});
	});

	it("ignores a metadata.user_id that is not a string", async () => {
		const { body } = await capture(ask("Go"), { ...noCache, metadata: { user_id: 42 } });
		expect(body.metadata).toBeUndefined();
	});

	it("defaults max_tokens to the model's maximum, capped at 32000", async () => {
		expect((await capture(ask(), noCache, { maxTokens: 8192 })).body.max_tokens).toBe(8192);
		expect((await capture(ask(), noCache, { maxTokens: 128_000 })).body.max_tokens).toBe(32_000);
		expect((await capture(ask(), noCache, { maxTokens: 0 })).body.max_tokens).toBe(4096);
	});

	it("sends effort as output_config.effort when set", async () => {
		const { body } = await capture(ask(), { ...noCache, effort: "low" }, { id: "claude-opus-4-6" });
		expect(body.output_config).toEqual({ effort: "low" });
		expect(body.thinking).toBeUndefined();
	});
});

describe("anthropic-messages request: url and headers", () => {
	it("sends the version and the key, with model headers then option headers merged last", async () => {
		const { request } = await capture(
			ask(),
			{ ...noCache, headers: { "X-Trace": "from-options", "Anthropic-Version": "2099-01-01", "anthropic-beta": "context-1m-2025-08-07" } },
			{ headers: { "x-trace": "from-model", "x-model-only": "1" } },
		);
		expect(providerHeaders(request.headers)).toEqual({
			"anthropic-version": "2099-01-01",
			"x-api-key": "sk-ant-api03-test",
			"x-trace": "from-options",
			"x-model-only": "1",
			"anthropic-beta": "context-1m-2025-08-07",
		});
		expect(request.headers["content-type"]).toBe("application/json");
	});

	it("lets the caller replace the key header", async () => {
		const { request } = await capture(ask(), { ...noCache, headers: { "X-Api-Key": "other-key" } });
		expect(request.headers["x-api-key"]).toBe("other-key");
	});

	it("accepts a base URL that ends in /v1 or a slash", async () => {
		const withV1 = await capture(ask(), noCache, { baseUrl: `${server.url}/v1/` });
		expect(withV1.request.path).toBe("/v1/messages");
		const withSlash = await capture(ask(), noCache, { baseUrl: `${server.url}/` });
		expect(withSlash.request.path).toBe("/v1/messages");
		const withPrefix = await capture(ask(), noCache, { baseUrl: `${server.url}/proxy/anthropic` });
		expect(withPrefix.request.path).toBe("/proxy/anthropic/v1/messages");
	});

	it("sends what onPayload returns instead of the built body, and the built body when it returns undefined", async () => {
		let seen: unknown;
		const replaced = await capture(ask("Go"), {
			...noCache,
			onPayload: (payload) => {
				seen = payload;
				return { model: "replaced", max_tokens: 1, stream: true, messages: [] };
			},
		});
		expect(seen).toEqual({ model: "claude-sonnet-4-20250514", max_tokens: 32000, stream: true, messages: [{ role: "user", content: [{ type: "text", text: "Go" }] }] });
		expect(replaced.body).toEqual({ model: "replaced", max_tokens: 1, stream: true, messages: [] });

		const kept = await capture(ask("Go"), { ...noCache, onPayload: async () => undefined });
		expect(kept.body).toEqual(seen);
	});
});
