/**
 * The Gemini API (`generativelanguage.googleapis.com/v1beta`) wire shapes this provider writes
 * and reads. Only the fields the code touches are modelled; the server sends more.
 */

/** Base64 bytes with their MIME type. */
export interface GeminiBlob {
	mimeType: string;
	data: string;
}

/** A function call as the model sent it, and as it is replayed. */
export interface GeminiFunctionCall {
	/** Present on newer models; must be echoed on the matching `functionResponse`. */
	id?: string;
	name?: string;
	args?: Record<string, unknown>;
	/** Vertex AI `streamFunctionCallArguments`: argument values streamed in pieces. */
	partialArgs?: GeminiPartialArg[];
	/** Vertex AI: more pieces of this call follow in later chunks. */
	willContinue?: boolean;
}

/** One streamed piece of a function call argument (Vertex AI). */
export interface GeminiPartialArg {
	/** Where the value goes, e.g. `$.location` or `$.items[0].name`. */
	jsonPath?: string;
	/** A piece of a string value: pieces at the same path concatenate. */
	stringValue?: string;
	numberValue?: number;
	boolValue?: boolean;
	nullValue?: unknown;
	/** More pieces of this string value follow. */
	willContinue?: boolean;
}

/** The result of a function call, sent back in a `user` turn. */
export interface GeminiFunctionResponse {
	id?: string;
	name: string;
	response: { output: string } | { error: string };
	/** Gemini 3+: media returned by the function, read by the model like prompt images. */
	parts?: { inlineData: GeminiBlob }[];
}

/** One part of a turn. Exactly one of the data fields is set. */
export interface GeminiPart {
	text?: string;
	/** This text is a thought summary, not the answer. */
	thought?: boolean;
	/** Opaque reasoning state to replay with this part to the same model. */
	thoughtSignature?: string;
	inlineData?: GeminiBlob;
	functionCall?: GeminiFunctionCall;
	functionResponse?: GeminiFunctionResponse;
	/** Code the model ran with the code-execution tool. */
	executableCode?: { language?: string; code?: string };
	/** The output of `executableCode`. */
	codeExecutionResult?: { outcome?: string; output?: string };
}

export interface GeminiContent {
	role: "user" | "model";
	parts: GeminiPart[];
}

/** A function declaration: `parametersJsonSchema` (full JSON Schema) or `parameters` (OpenAPI subset). */
export interface GeminiFunctionDeclaration {
	name: string;
	description: string;
	parametersJsonSchema?: unknown;
	parameters?: unknown;
}

export interface GeminiThinkingConfig {
	includeThoughts?: boolean;
	/** Gemini 2.x: reasoning tokens; 0 turns thinking off where the model allows it. */
	thinkingBudget?: number;
	/** Gemini 3+: `minimal`, `low`, `medium` or `high` (support varies by model). */
	thinkingLevel?: string;
}

export interface GeminiGenerationConfig {
	temperature?: number;
	maxOutputTokens?: number;
	thinkingConfig?: GeminiThinkingConfig;
	/** `application/json` for structured output. */
	responseMimeType?: string;
	/** Structured output as full JSON Schema (`$ref`/`$defs`, `anyOf`, …). */
	responseJsonSchema?: Record<string, unknown>;
	/** Structured output in Google's OpenAPI 3.0 subset (`compat.toolSchemaField: "parameters"`). */
	responseSchema?: Record<string, unknown>;
}

export type GeminiFunctionCallingMode = "AUTO" | "ANY" | "NONE";

/** The body of `models/{model}:streamGenerateContent`. */
export interface GeminiRequest {
	contents: GeminiContent[];
	systemInstruction?: { parts: { text: string }[] };
	tools?: { functionDeclarations: GeminiFunctionDeclaration[] }[];
	toolConfig?: { functionCallingConfig: { mode: GeminiFunctionCallingMode } };
	generationConfig?: GeminiGenerationConfig;
}

export interface GeminiUsageMetadata {
	promptTokenCount?: number;
	candidatesTokenCount?: number;
	cachedContentTokenCount?: number;
	thoughtsTokenCount?: number;
	toolUsePromptTokenCount?: number;
	totalTokenCount?: number;
}

export interface GeminiCandidate {
	content?: { role?: string; parts?: GeminiPart[] };
	finishReason?: string;
	/** Human-readable detail for some finish reasons. */
	finishMessage?: string;
	index?: number;
}

/** One `data:` chunk of the stream. */
export interface GeminiStreamChunk {
	candidates?: GeminiCandidate[];
	usageMetadata?: GeminiUsageMetadata;
	promptFeedback?: { blockReason?: string; blockReasonMessage?: string };
	responseId?: string;
	modelVersion?: string;
	/** An error reported inside a 200 stream. */
	error?: { code?: number; message?: string; status?: string };
}
