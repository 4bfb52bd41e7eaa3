import { describe, expect, it } from "vitest";
import { extractErrorMessage } from "../../src/http/error-body.js";

describe("extractErrorMessage", () => {
	it("reads OpenAI error bodies, with their type", () => {
		expect(extractErrorMessage('{"error":{"message":"You exceeded your quota","type":"insufficient_quota","code":"insufficient_quota"}}')).toBe(
			"insufficient_quota: You exceeded your quota",
		);
	});
	it("reads Anthropic error bodies", () => {
		expect(extractErrorMessage('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')).toBe("overloaded_error: Overloaded");
	});
	it("reads Gemini error arrays", () => {
		expect(extractErrorMessage('[{"error":{"code":400,"message":"API key not valid","status":"INVALID_ARGUMENT"}}]')).toBe(
			"INVALID_ARGUMENT: API key not valid",
		);
	});
	it("reads {message} and {detail} bodies", () => {
		expect(extractErrorMessage('{"message":"model not found"}')).toBe("model not found");
		expect(extractErrorMessage('{"detail":"Not Found"}')).toBe("Not Found");
	});
	it("takes the title of HTML pages, decoding entities", () => {
		expect(extractErrorMessage("<!DOCTYPE html><html><head><title>502 Bad Gateway &amp; co</title></head><body>x</body></html>")).toBe(
			"502 Bad Gateway & co",
		);
		expect(extractErrorMessage("<html><body><h1>Service Unavailable</h1></body></html>")).toBe("Service Unavailable");
	});
	it("collapses and truncates plain text", () => {
		expect(extractErrorMessage("  upstream\n connect   error ")).toBe("upstream connect error");
		expect(extractErrorMessage("x".repeat(600))).toHaveLength(501);
		expect(extractErrorMessage("")).toBeUndefined();
	});
});
