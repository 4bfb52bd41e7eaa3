import { describe, expect, it } from "vitest";
import { isBlank } from "../src/utils/is-blank.js";

describe("isBlank", () => {
	it("agrees with trim() for SSE payloads", () => {
		for (const text of ["", " ", "\t\r\n ", '{"type":"ping"}   ', "  x", "\u00a0"]) {
			expect(isBlank(text), JSON.stringify(text)).toBe(text.replace(/[ \t\r\n]/g, "") === "");
		}
	});
});
