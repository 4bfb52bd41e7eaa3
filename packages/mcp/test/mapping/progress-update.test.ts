/** notifications/progress → the partial result of a tool_execution_update. */
import { describe, expect, it } from "vitest";
import { progressUpdate } from "../../src/index.js";

describe("progressUpdate", () => {
	it("uses the server's message, else progress/total, and keeps the numbers in details", () => {
		expect(progressUpdate({ progress: 2, total: 5 })).toEqual({ content: [{ type: "text", text: "progress 2/5" }], details: { progress: 2, total: 5 } });
		expect(progressUpdate({ progress: 7 })).toEqual({ content: [{ type: "text", text: "progress 7" }], details: { progress: 7 } });
		expect(progressUpdate({ progress: 1, total: 4, message: "indexing" })).toEqual({
			content: [{ type: "text", text: "indexing" }],
			details: { progress: 1, total: 4, message: "indexing" },
		});
	});
});
