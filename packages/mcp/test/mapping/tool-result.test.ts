/** A tools/call result → an agent tool result, or the error the loop turns into an error result. */
import { describe, expect, it } from "vitest";
import { McpToolError, toolResultFromMcp } from "../../src/index.js";

describe("toolResultFromMcp", () => {
	it("maps content, and puts structuredContent in details", () => {
		expect(toolResultFromMcp({ content: [{ type: "text", text: "3" }], structuredContent: { sum: 3 } }, "sum")).toEqual({
			content: [{ type: "text", text: "3" }],
			details: { sum: 3 },
		});
		expect(toolResultFromMcp({ content: [] }, "noop")).toEqual({ content: [], details: undefined });
	});

	it("isError throws McpToolError carrying the server's text and the raw result", () => {
		const result = { isError: true, content: [{ type: "text" as const, text: "no such file" }, { type: "text" as const, text: "at /x" }] };
		let thrown: unknown;
		try {
			toolResultFromMcp(result, "read");
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(McpToolError);
		expect((thrown as McpToolError).message).toBe("no such file\nat /x");
		expect((thrown as McpToolError).result).toBe(result);
	});

	it("an isError result without text still says which tool failed", () => {
		expect(() => toolResultFromMcp({ isError: true, content: [] }, "read")).toThrow('Tool "read" failed and sent no text.');
	});

	it("the older toolResult form becomes its JSON as text", () => {
		expect(toolResultFromMcp({ toolResult: { ok: 1 } }, "old")).toEqual({ content: [{ type: "text", text: '{"ok":1}' }], details: undefined });
	});
});
