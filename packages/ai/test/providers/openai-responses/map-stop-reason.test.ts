/** Terminal Responses events and their stop reasons, with the raw value kept. */
import { expect, it } from "vitest";
import { mapStopReason, providerErrorText } from "../../../src/providers/openai-responses/map-stop-reason.js";

it("maps completed to stop, or toolUse when a function_call item was emitted", () => {
	expect(mapStopReason("response.completed", { status: "completed" }, false)).toEqual({ reason: "stop", rawStopReason: "completed" });
	expect(mapStopReason("response.completed", { status: "completed" }, true)).toEqual({ reason: "toolUse", rawStopReason: "completed" });
});

it("maps incomplete by its reason: max_output_tokens is length, anything else an error", () => {
	expect(mapStopReason("response.incomplete", { incomplete_details: { reason: "max_output_tokens" } }, true)).toEqual({ reason: "length", rawStopReason: "max_output_tokens" });
	expect(mapStopReason("response.incomplete", { incomplete_details: null }, false)).toEqual({
		reason: "error",
		rawStopReason: "incomplete",
		errorMessage: "The response is incomplete: the provider gave no reason.",
	});
});

it("maps failed to an error with the provider's message, and unknown events to stop", () => {
	expect(mapStopReason("response.failed", { status: "failed", error: { code: "server_error", message: "Boom" } }, false)).toEqual({
		reason: "error",
		rawStopReason: "failed",
		errorMessage: "server_error: Boom",
	});
	expect(mapStopReason("response.failed", undefined, false).errorMessage).toBe("The response failed without an error message.");
	expect(mapStopReason("response.something_new", undefined, false)).toEqual({ reason: "stop", rawStopReason: "response.something_new" });
});

it("writes provider errors as code: message without repeating the code", () => {
	expect(providerErrorText("insufficient_quota", "You exceeded your current quota")).toBe("insufficient_quota: You exceeded your current quota");
	expect(providerErrorText("bad", "bad thing happened")).toBe("bad thing happened");
	expect(providerErrorText(null, null)).toBeUndefined();
	expect(providerErrorText("only_code", undefined)).toBe("only_code");
});
