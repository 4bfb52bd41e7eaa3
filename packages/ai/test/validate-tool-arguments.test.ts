import { describe, expect, it } from "vitest";
import { Type } from "typebox";
import { validateToolArguments, validateToolCall } from "../src/validation/validate-tool-arguments.js";
import type { Tool, ToolCall } from "../src/types.js";

const weather: Tool = {
	name: "get_weather",
	description: "Weather for a city",
	parameters: Type.Object({ city: Type.String(), days: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false }),
};
const call = (args: Record<string, unknown>, name = "get_weather"): ToolCall => ({ type: "toolCall", id: "c1", name, arguments: args });

describe("validateToolArguments", () => {
	it("returns valid arguments unchanged", () => {
		expect(validateToolArguments(weather, call({ city: "Paris", days: 2 }))).toEqual({ city: "Paris", days: 2 });
	});

	it("names the path and the problem of each error, readable by a model", () => {
		expect(() => validateToolArguments(weather, call({ city: 3, days: 0, extra: true }))).toThrow(
			'Invalid arguments for tool "get_weather":\n  /: unexpected property "extra"\n  /city: expected string\n  /days: expected >= 1',
		);
	});

	it("reports missing required properties", () => {
		expect(() => validateToolArguments(weather, call({}))).toThrow('/: missing required property "city"');
	});

	it("validates plain JSON Schema tools, such as MCP tools, with $defs and composition", () => {
		const mcpTool = {
			name: "mcp_tool",
			description: "",
			parameters: {
				type: "object",
				$defs: { Unit: { enum: ["c", "f"] } },
				properties: { unit: { $ref: "#/$defs/Unit" }, value: { anyOf: [{ type: "string" }, { type: "number" }] } },
				required: ["unit"],
			},
		} as unknown as Tool;
		expect(validateToolArguments(mcpTool, call({ unit: "c", value: 3 }, "mcp_tool"))).toEqual({ unit: "c", value: 3 });
		expect(() => validateToolArguments(mcpTool, call({ unit: "k" }, "mcp_tool"))).toThrow('/unit: expected one of ["c","f"]');
	});

	it("compiles each schema once and caches the validator", () => {
		let reads = 0;
		const schema = new Proxy(
			{ type: "object", properties: { n: { type: "number" } }, required: ["n"] },
			{
				get(target, key, receiver) {
					reads++;
					return Reflect.get(target, key, receiver);
				},
			},
		);
		const tool = { name: "t", description: "", parameters: schema } as unknown as Tool;
		validateToolArguments(tool, call({ n: 1 }, "t"));
		expect(reads).toBeGreaterThan(0);
		reads = 0;
		for (let i = 0; i < 100; i++) validateToolArguments(tool, call({ n: i }, "t"));
		expect(reads).toBe(0);
	});

	it("never lets __proto__ keys reach prototypes", () => {
		const args = JSON.parse('{"city":"Paris","__proto__":{"polluted":true}}') as Record<string, unknown>;
		expect(() => validateToolArguments(weather, call(args))).toThrow(/unexpected property "__proto__"/);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});
});

describe("validateToolCall", () => {
	it("finds the tool by name, or says which tools exist", () => {
		expect(validateToolCall([weather], call({ city: "Oslo" }))).toEqual({ city: "Oslo" });
		expect(() => validateToolCall([weather], call({}, "nope"))).toThrow('Tool "nope" not found. Available tools: "get_weather".');
	});
});
