/** Tool-call ids of the Responses API: `call_id|item_id`, split and normalised for replay. */
import { describe, expect, it } from "vitest";
import { decodeToolCallId, encodeToolCallId, normalizeResponsesToolCallId } from "../../../src/providers/openai-responses/tool-call-id.js";

describe("Responses tool-call ids", () => {
	it("joins and splits call id and item id", () => {
		expect(encodeToolCallId("call_1", "fc_1")).toBe("call_1|fc_1");
		expect(encodeToolCallId("call_1", undefined)).toBe("call_1");
		expect(decodeToolCallId("call_1|fc_1")).toEqual({ callId: "call_1", itemId: "fc_1" });
		expect(decodeToolCallId("toolu_01")).toEqual({ callId: "toolu_01" });
		expect(decodeToolCallId("call_1|")).toEqual({ callId: "call_1" });
	});

	it("keeps valid ids, including DeepSeek's UUID item ids", () => {
		expect(normalizeResponsesToolCallId("call_00_xjY8Z2BvSlzgEmmw0DtH0464|62bf2bb7-56af-4e3a-883b-83d4aad54da1")).toBe(
			"call_00_xjY8Z2BvSlzgEmmw0DtH0464|62bf2bb7-56af-4e3a-883b-83d4aad54da1",
		);
		expect(normalizeResponsesToolCallId("toolu_01ABC")).toBe("toolu_01ABC");
	});

	it("makes foreign call ids safe: at most 64 characters of [A-Za-z0-9_-], distinct ids staying distinct", () => {
		const a = normalizeResponsesToolCallId(`tool.${"a".repeat(100)}`);
		const b = normalizeResponsesToolCallId(`tool.${"a".repeat(99)}b`);
		for (const id of [a, b]) {
			expect(id.length).toBeLessThanOrEqual(64);
			expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
		}
		expect(a).not.toBe(b);
		expect(normalizeResponsesToolCallId("fn:1|fc_1")).toMatch(/^fn_1_[a-z0-9]+\|fc_1$/);
	});
});
