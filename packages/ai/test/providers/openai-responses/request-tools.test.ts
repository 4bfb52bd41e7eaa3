/**
 * Golden request bodies for tools: function tools keep their whole JSON Schema (`$defs`, `anyOf`,
 * `additionalProperties`, `$ref`) with `strict: false`.
 */
import { Type } from "typebox";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import type { Tool } from "../../../src/types.js";
import { captureRequest, userContext } from "./helpers.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(async () => {
	await server.close();
});

it("sends function tools with the full schema and strict: false", async () => {
	const mcpSchema = {
		type: "object",
		$defs: { unit: { type: "string", enum: ["c", "f"] } },
		properties: {
			city: { type: "string" },
			unit: { $ref: "#/$defs/unit" },
			when: { anyOf: [{ type: "string", format: "date" }, { type: "null" }] },
		},
		required: ["city"],
		additionalProperties: false,
	};
	const tools: Tool[] = [
		{ name: "weather", description: "Weather for a city", parameters: mcpSchema as unknown as Tool["parameters"] },
		{ name: "add", description: "Adds two numbers", parameters: Type.Object({ a: Type.Number(), b: Type.Optional(Type.Number()) }) },
	];
	const { body } = await captureRequest(server, { ...userContext(), tools }, { toolChoice: "auto" });
	expect(body.tools).toEqual([
		{ type: "function", name: "weather", description: "Weather for a city", parameters: mcpSchema, strict: false },
		{
			type: "function",
			name: "add",
			description: "Adds two numbers",
			parameters: { type: "object", required: ["a"], properties: { a: { type: "number" }, b: { type: "number" } } },
			strict: false,
		},
	]);
	expect(body.tool_choice).toBe("auto");
});

it("sends no tools field when the context has none", async () => {
	const { body } = await captureRequest(server, { ...userContext(), tools: [] });
	expect("tools" in body).toBe(false);
});
