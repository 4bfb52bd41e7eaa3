/** Golden request bodies: tool declarations, the schema field by compat, and tool choice. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import type { Context, Tool } from "../../../src/types.js";
import { capturedBody, geminiModel } from "./helpers.js";

const RICH_SCHEMA = {
	$schema: "https://json-schema.org/draft/2020-12/schema",
	type: "object",
	properties: {
		target: { $ref: "#/$defs/Target" },
		mode: { anyOf: [{ const: "fast" }, { const: "safe" }] },
		limit: { type: ["integer", "null"], minimum: 1 },
	},
	required: ["target"],
	additionalProperties: false,
	$defs: { Target: { type: "object", properties: { path: { type: "string", format: "uri" } }, required: ["path"], additionalProperties: false } },
} as unknown as Tool["parameters"];

const TOOLS: Tool[] = [
	{ name: "open", description: "Open a target", parameters: RICH_SCHEMA },
	{ name: "now", description: "Current time", parameters: { type: "object", properties: {} } as unknown as Tool["parameters"] },
];

const CONTEXT: Context = { messages: [{ role: "user", content: "Go", timestamp: 1 }], tools: TOOLS };

describe("google-generative-ai request: tools", () => {
	let server: ReplayServer;
	beforeAll(async () => {
		server = await startReplayServer();
	});
	afterAll(() => server.close());

	it("sends full JSON Schema unchanged in parametersJsonSchema by default", async () => {
		expect(await capturedBody(server, geminiModel(), CONTEXT)).toEqual({
			contents: [{ role: "user", parts: [{ text: "Go" }] }],
			tools: [
				{
					functionDeclarations: [
						{ name: "open", description: "Open a target", parametersJsonSchema: RICH_SCHEMA },
						{ name: "now", description: "Current time", parametersJsonSchema: { type: "object", properties: {} } },
					],
				},
			],
		});
	});

	it("converts to the OpenAPI subset in `parameters` when the model's compat asks for it", async () => {
		const model = geminiModel("gemini-2.5-flash", { compat: { toolSchemaField: "parameters" } });
		expect(await capturedBody(server, model, CONTEXT)).toEqual({
			contents: [{ role: "user", parts: [{ text: "Go" }] }],
			tools: [
				{
					functionDeclarations: [
						{
							name: "open",
							description: "Open a target",
							parameters: {
								type: "OBJECT",
								properties: {
									target: { type: "OBJECT", properties: { path: { type: "STRING" } }, required: ["path"] },
									mode: { anyOf: [{ type: "STRING", enum: ["fast"] }, { type: "STRING", enum: ["safe"] }] },
									limit: { type: "INTEGER", nullable: true, minimum: 1 },
								},
								required: ["target"],
							},
						},
						// No arguments: `parameters` is left out (Gemini rejects an OBJECT without properties).
						{ name: "now", description: "Current time" },
					],
				},
			],
		});
	});

	for (const [choice, mode] of [
		["auto", "AUTO"],
		["any", "ANY"],
		["none", "NONE"],
	] as const) {
		it(`maps toolChoice "${choice}" to functionCallingConfig.mode ${mode}`, async () => {
			const body = (await capturedBody(server, geminiModel(), CONTEXT, { toolChoice: choice })) as Record<string, unknown>;
			expect(body.toolConfig).toEqual({ functionCallingConfig: { mode } });
		});
	}

	it("sends no tools and no toolConfig when the context has no tools", async () => {
		const body = await capturedBody(server, geminiModel(), { messages: CONTEXT.messages }, { toolChoice: "any" });
		expect(body).toEqual({ contents: [{ role: "user", parts: [{ text: "Go" }] }] });
	});
});
