/** What the model id implies for a Gemini request, and `model.compat` overriding it. */
import { describe, expect, it } from "vitest";
import { geminiVersion, resolveGoogleCompat } from "../../../src/providers/google-generative-ai/google-compat.js";
import { createToolCallIdGenerator, isGeneratedToolCallId } from "../../../src/providers/google-generative-ai/tool-call-id.js";
import { geminiModel } from "./helpers.js";

describe("resolveGoogleCompat", () => {
	it("reads the generation from the id", () => {
		expect(geminiVersion("gemini-2.5-flash")).toBe(2.5);
		expect(geminiVersion("models/gemini-3.1-pro-preview")).toBe(3.1);
		expect(geminiVersion("gemini-3-flash-preview")).toBe(3);
		expect(geminiVersion("gemini-flash-latest")).toBeUndefined();
	});

	it("derives Gemini 3 behaviour from the id", () => {
		expect(resolveGoogleCompat(geminiModel("gemini-3-pro-preview"))).toEqual({
			toolSchemaField: "parametersJsonSchema",
			thinkingControl: "level",
			multimodalFunctionResponse: true,
			requiresFunctionCallSignature: true,
			jsonResponseWithTools: true,
			levels: ["low", "high"],
			budgetRange: { min: 128, max: 32_768, canDisable: false },
		});
		expect(resolveGoogleCompat(geminiModel("gemini-3.1-pro-preview")).levels).toEqual(["low", "medium", "high"]);
		expect(resolveGoogleCompat(geminiModel("gemini-3-flash-preview")).levels).toEqual(["minimal", "low", "medium", "high"]);
	});

	it("derives Gemini 2.x behaviour from the id", () => {
		expect(resolveGoogleCompat(geminiModel("gemini-2.5-flash-lite"))).toMatchObject({
			thinkingControl: "budget",
			multimodalFunctionResponse: false,
			requiresFunctionCallSignature: false,
			jsonResponseWithTools: false,
			budgetRange: { min: 512, max: 24_576, canDisable: true },
		});
	});

	it("lets model.compat override every derived field", () => {
		const model = geminiModel("gemini-2.5-flash", {
			compat: { toolSchemaField: "parameters", thinkingControl: "level", multimodalFunctionResponse: true, requiresFunctionCallSignature: true },
		});
		expect(resolveGoogleCompat(model)).toMatchObject({
			toolSchemaField: "parameters",
			thinkingControl: "level",
			multimodalFunctionResponse: true,
			requiresFunctionCallSignature: true,
		});
	});
});

describe("generated tool-call ids", () => {
	it("count the calls of a message and are recognised as generated", () => {
		const next = createToolCallIdGenerator(() => 0.5);
		expect(next("get_weather")).toBe("get_weather_1_iiiiiiii");
		expect(next("get_weather")).toBe("get_weather_2_iiiiiiii");
		expect(isGeneratedToolCallId("get_weather_2_iiiiiiii", "get_weather")).toBe(true);
		expect(isGeneratedToolCallId("dv8szvqe", "get_weather")).toBe(false);
		expect(isGeneratedToolCallId("get_weather_2_iiiiiiii", "other")).toBe(false);
	});
});
