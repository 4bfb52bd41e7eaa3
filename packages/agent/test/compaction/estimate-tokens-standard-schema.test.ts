import { describe, expect, it } from "vitest";
import { z } from "zod";
import { estimateContextTokens } from "../../src/index.js";
import { chars, user } from "./messages.js";

describe("estimateContextTokens with a zod tool", () => {
	it("counts the tool's JSON Schema, what the request carries, not the zod object", () => {
		const parameters = z.object({ command: z.string(), timeout: z.number().optional() });
		const wire = { type: "object", properties: { command: { type: "string" }, timeout: { type: "number" } }, required: ["command"] };
		const tool = { name: "bash", description: chars(96), parameters };
		const estimate = estimateContextTokens([user(chars(400))], { tools: [tool] });
		expect(estimate.tokens).toBe(100 + Math.ceil((4 + 96 + JSON.stringify(wire).length) / 4));
	});
});
