import { describe, expect, it } from "vitest";
import { convertMessages, mistralToolCallId, openAIToolCallId } from "../../../src/providers/openai-completions.js";
import { detectCompat } from "../../../src/providers/openai-completions.js";
import type { Context } from "../../../src/types.js";
import { assistant, completionsModel, FLAVOURS, toolResult, user } from "./helpers.js";

describe("mistralToolCallId", () => {
	it("keeps an id that is already 9 letters and digits", () => {
		expect(mistralToolCallId("gSIMJiOkT")).toBe("gSIMJiOkT");
	});

	it("derives exactly 9 letters and digits from any other id, deterministically", () => {
		for (const id of ["call_abc123", "toolu_01A09q90qw90lq917835lq9", "x", "", "call_R1|fc_68a0ffee", "abc_def_1"]) {
			const mapped = mistralToolCallId(id);
			expect(mapped).toMatch(/^[a-zA-Z0-9]{9}$/);
			expect(mistralToolCallId(id)).toBe(mapped);
		}
	});

	it("gives distinct ids for distinct inputs", () => {
		const ids = Array.from({ length: 2000 }, (_, n) => mistralToolCallId(`call_${n}`));
		expect(new Set(ids).size).toBe(ids.length);
	});
});

describe("openAIToolCallId", () => {
	it("keeps a valid id of up to 40 characters", () => {
		expect(openAIToolCallId("call_ZR5UUuTt3pf61kjwAJIYdVMj")).toBe("call_ZR5UUuTt3pf61kjwAJIYdVMj");
		expect(openAIToolCallId("a".repeat(40))).toBe("a".repeat(40));
	});

	it("keeps only the call id of a Responses call_id|item_id", () => {
		expect(openAIToolCallId("call_abc|fc_0123456789")).toBe("call_abc");
	});

	it("shortens longer ids to 40 characters, keeping distinct ids distinct", () => {
		const long1 = `call_${"x".repeat(50)}1`;
		const long2 = `call_${"x".repeat(50)}2`;
		expect(openAIToolCallId(long1)).toHaveLength(40);
		expect(openAIToolCallId(long1)).not.toBe(openAIToolCallId(long2));
		expect(openAIToolCallId(long1)).toMatch(/^[a-zA-Z0-9_-]+$/);
	});
});

describe("ids in a converted transcript", () => {
	it("Mistral: calls and their results get the same 9-character ids, even for a reused original id", () => {
		const model = FLAVOURS.mistral;
		const other = completionsModel({ provider: "openai", id: "gpt-4o" });
		const context: Context = {
			messages: [
				user("Go"),
				assistant([{ type: "toolCall", id: "call_same", name: "f", arguments: {} }], other, "toolUse"),
				toolResult("call_same", "f", [{ type: "text", text: "one" }]),
				assistant([{ type: "toolCall", id: "call_same", name: "f", arguments: {} }], other, "toolUse"),
				toolResult("call_same", "f", [{ type: "text", text: "two" }]),
			],
		};
		const wire = convertMessages(model, context, detectCompat(model));
		const callIds = wire.flatMap((message) => (message.role === "assistant" ? (message.tool_calls ?? []).map((call) => call.id) : []));
		const resultIds = wire.flatMap((message) => (message.role === "tool" ? [message.tool_call_id] : []));
		expect(callIds).toHaveLength(2);
		for (const id of callIds) expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
		expect(new Set(callIds).size).toBe(2);
		expect(resultIds).toEqual(callIds);
	});

	it("the wire ids of this API's own replies pass unchanged to OpenAI-style servers", () => {
		const model = FLAVOURS.groq;
		const context: Context = {
			messages: [
				user("Go"),
				assistant([{ type: "toolCall", id: "tk85n1k4m", name: "weather", arguments: {} }], model, "toolUse"),
				toolResult("tk85n1k4m", "weather", [{ type: "text", text: "sunny" }]),
			],
		};
		const wire = convertMessages(model, context, detectCompat(model));
		expect(wire[1]).toMatchObject({ tool_calls: [{ id: "tk85n1k4m" }] });
		expect(wire[2]).toMatchObject({ role: "tool", tool_call_id: "tk85n1k4m" });
	});
});
