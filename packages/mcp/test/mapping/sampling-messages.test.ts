/** sampling/createMessage params → a @pi/ai context, and the model's reply → the answer. */
import { fauxAssistantMessage } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { samplingRequest, samplingResult } from "../../src/index.js";

describe("samplingRequest", () => {
	it("keeps the system prompt, the messages, maxTokens and temperature", () => {
		const request = samplingRequest(
			{
				systemPrompt: "Be brief.",
				maxTokens: 20,
				temperature: 0.2,
				messages: [
					{ role: "user", content: { type: "text", text: "Hi" } },
					{ role: "assistant", content: { type: "text", text: "Hello" } },
					{ role: "user", content: [{ type: "image", data: "AA==", mimeType: "image/png" }, { type: "audio", data: "AA==", mimeType: "audio/wav" }] },
				],
			},
			"m-1",
			9,
		);
		expect(request.maxTokens).toBe(20);
		expect(request.temperature).toBe(0.2);
		expect(request.context.systemPrompt).toBe("Be brief.");
		expect(request.context.messages).toEqual([
			{ role: "user", content: [{ type: "text", text: "Hi" }], timestamp: 9 },
			expect.objectContaining({ role: "assistant", content: [{ type: "text", text: "Hello" }], model: "m-1", stopReason: "stop" }),
			{ role: "user", content: [{ type: "image", data: "AA==", mimeType: "image/png" }, { type: "text", text: "[audio content, not shown]" }], timestamp: 9 },
		]);
		expect(samplingRequest({ maxTokens: 5, messages: [] }, "m").temperature).toBeUndefined();
	});
});

describe("samplingResult", () => {
	it("joins the reply's text and maps the stop reason", () => {
		const reply = { ...fauxAssistantMessage("Par"), model: "m-1" };
		reply.content.push({ type: "text", text: "is" });
		expect(samplingResult(reply)).toEqual({ role: "assistant", model: "m-1", content: { type: "text", text: "Paris" }, stopReason: "endTurn" });
		expect(samplingResult({ ...reply, stopReason: "length" }).stopReason).toBe("maxTokens");
	});

	it("a failed or aborted reply throws its error message", () => {
		const reply = { ...fauxAssistantMessage(""), model: "m-1", stopReason: "error" as const, errorMessage: "quota exceeded" };
		expect(() => samplingResult(reply)).toThrow("the app's model m-1 could not answer the sampling request: quota exceeded");
		expect(() => samplingResult({ ...reply, stopReason: "aborted", errorMessage: undefined })).toThrow("could not answer the sampling request: aborted");
	});
});
