import type { Api, Model } from "../../types.js";

/**
 * Differences between Gemini models (and servers that speak the Gemini API) that change the
 * request. Set them in `model.compat`; each one left out is derived from the model id.
 *
 * @example
 * const model = { ...getModel("google", "gemini-2.5-flash")!, compat: { toolSchemaField: "parameters" } };
 */
export interface GoogleCompat {
	/**
	 * Where tool parameter schemas go. `parametersJsonSchema` (default) takes full JSON Schema
	 * (`$ref`/`$defs`, `anyOf`, `additionalProperties`, `const`). `parameters` takes Google's
	 * OpenAPI 3.0 subset: the schema is converted and unsupported keywords are dropped. Use it
	 * for gateways or older API versions that do not know `parametersJsonSchema`.
	 */
	toolSchemaField?: "parametersJsonSchema" | "parameters";
	/**
	 * How reasoning effort is set: `thinkingBudget` tokens (Gemini 2.x) or `thinkingLevel`
	 * (Gemini 3 and later). Default: `level` for Gemini 3+, else `budget`.
	 */
	thinkingControl?: "budget" | "level";
	/**
	 * Tool-result images go inside `functionResponse.parts` (Gemini 3+). When false they follow the
	 * function responses as ordinary image parts of the same user turn. Default: Gemini 3+.
	 */
	multimodalFunctionResponse?: boolean;
	/**
	 * Function calls of the current turn must carry a thought signature, else the API answers
	 * 400 (Gemini 3+). Calls that have none (from another model, or a transcript that lost it) get
	 * Google's documented placeholder `skip_thought_signature_validator`. Default: Gemini 3+.
	 */
	requiresFunctionCallSignature?: boolean;
	/**
	 * Whether a request with function declarations may also set `responseMimeType:
	 * "application/json"` for structured output. Gemini 2.x answers 400 "Function calling with a
	 * response mime type: 'application/json' is unsupported"; there, `options.output` with tools
	 * goes in the system instruction instead (the reply is still parsed and validated). Default:
	 * Gemini 3+.
	 */
	jsonResponseWithTools?: boolean;
}

/** Every {@link GoogleCompat} field, resolved for one model. */
export type ResolvedGoogleCompat = Required<GoogleCompat> & {
	/** `minimal` and `medium` thinking levels exist (Flash models); Pro models have `low`/`high` (3.1: also `medium`). */
	levels: readonly GeminiThinkingLevelName[];
	/** The smallest budget that keeps thinking on, and whether 0 (off) is allowed; for budget models. */
	budgetRange: { min: number; max: number; canDisable: boolean };
};

/** The `thinkingLevel` values of the wire, lowercase as in Google's REST examples. */
export type GeminiThinkingLevelName = "minimal" | "low" | "medium" | "high";

/**
 * The Gemini generation of a model id, e.g. 2.5 for `gemini-2.5-flash`, 3.1 for
 * `models/gemini-3.1-pro-preview`; `undefined` for ids without one (`gemini-flash-latest`).
 */
export function geminiVersion(modelId: string): number | undefined {
	const match = /gemini-(\d+(?:\.\d+)?)/i.exec(modelId);
	return match ? Number(match[1]) : undefined;
}

/**
 * Resolves `model.compat` against what the model id implies.
 *
 * Rules taken from Google's model documentation: Gemini 3 uses `thinkingLevel` (Flash: minimal,
 * low, medium, high; 3 Pro: low, high; 3.1 Pro: low, medium, high) and cannot turn thinking off;
 * Gemini 2.5 uses `thinkingBudget` (Pro 128–32768, cannot be 0; Flash 0–24576; Flash-Lite 0 or
 * 512–24576). Ids without a version are treated as budget models, because Gemini 3 still accepts
 * `thinkingBudget` while Gemini 2.5 rejects `thinkingLevel`.
 */
export function resolveGoogleCompat(model: Model<Api>): ResolvedGoogleCompat {
	const compat = (model.compat ?? {}) as GoogleCompat;
	const id = model.id.toLowerCase();
	const version = geminiVersion(id);
	const modern = version !== undefined && version >= 3;
	const pro = id.includes("pro");
	const lite = id.includes("lite");
	let levels: readonly GeminiThinkingLevelName[];
	if (!pro) levels = ["minimal", "low", "medium", "high"];
	else if (version !== undefined && version >= 3.1) levels = ["low", "medium", "high"];
	else levels = ["low", "high"];
	const budgetRange = pro
		? { min: 128, max: 32_768, canDisable: false }
		: { min: lite ? 512 : 1, max: 24_576, canDisable: true };
	return {
		toolSchemaField: compat.toolSchemaField ?? "parametersJsonSchema",
		thinkingControl: compat.thinkingControl ?? (modern ? "level" : "budget"),
		multimodalFunctionResponse: compat.multimodalFunctionResponse ?? modern,
		requiresFunctionCallSignature: compat.requiresFunctionCallSignature ?? modern,
		jsonResponseWithTools: compat.jsonResponseWithTools ?? modern,
		levels,
		budgetRange,
	};
}
