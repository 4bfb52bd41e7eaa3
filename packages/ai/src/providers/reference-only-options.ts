/**
 * Option types of the reference's providers that this package does not implement (Bedrock,
 * Azure OpenAI Responses, Vertex, Mistral Conversations, the Codex subscription). They exist so
 * that code written against `@mariozechner/pi-ai` compiles; the stream functions that take them
 * fail with advice (see provider-stream-functions.ts and docs/migration.md). Field names are the
 * reference's.
 */
import type { StreamOptions, ThinkingBudgets, ThinkingLevel } from "../types.js";
import type { GoogleThinkingLevel } from "./google-generative-ai/google-options.js";
import type { ResponsesServiceTier } from "./openai-responses/wire-types.js";

/** Whether Claude on Bedrock returns summarized thinking or omits it. For a Bedrock module plugged in with `setBedrockProviderModule`; @pi/ai reads none of it. */
export type BedrockThinkingDisplay = "summarized" | "omitted";

/** Options of the reference's Amazon Bedrock provider. @pi/ai has no Bedrock provider of its own: these reach a module plugged in with `setBedrockProviderModule`, unread here. */
export interface BedrockOptions extends StreamOptions {
	region?: string;
	profile?: string;
	toolChoice?: "auto" | "any" | "none" | { type: "tool"; name: string };
	reasoning?: ThinkingLevel;
	thinkingBudgets?: ThinkingBudgets;
	interleavedThinking?: boolean;
	thinkingDisplay?: BedrockThinkingDisplay;
	requestMetadata?: Record<string, string>;
	bearerToken?: string;
}

/** Options of the reference's Azure OpenAI Responses provider, which @pi/ai lacks: `streamAzureOpenAIResponses` fails saying so. Use `OpenAIResponsesOptions` with Azure's `baseUrl`. */
export interface AzureOpenAIResponsesOptions extends StreamOptions {
	reasoningEffort?: ThinkingLevel;
	reasoningSummary?: "auto" | "detailed" | "concise" | null;
	azureApiVersion?: string;
	azureResourceName?: string;
	azureBaseUrl?: string;
	azureDeploymentName?: string;
}

/** Options of the reference's Google Vertex provider, which @pi/ai lacks: `streamGoogleVertex` fails saying so. Use `GoogleOptions` with the Gemini API. */
export interface GoogleVertexOptions extends StreamOptions {
	toolChoice?: "auto" | "none" | "any";
	thinking?: { enabled: boolean; budgetTokens?: number; level?: GoogleThinkingLevel };
	project?: string;
	location?: string;
}

/** Options of the reference's Mistral Conversations provider, which @pi/ai lacks: `streamMistral` fails saying so. Use `OpenAICompletionsOptions` with Mistral's `baseUrl`. */
export interface MistralOptions extends StreamOptions {
	toolChoice?: "auto" | "none" | "any" | "required" | { type: "function"; function: { name: string } };
	promptMode?: "reasoning";
	reasoningEffort?: "none" | "high";
}

/** Options of the reference's OpenAI Codex (ChatGPT subscription) provider, which @pi/ai lacks: `streamOpenAICodexResponses` fails saying so. Use `OpenAIResponsesOptions` with an API key. */
export interface OpenAICodexResponsesOptions extends StreamOptions {
	reasoningEffort?: "none" | ThinkingLevel;
	reasoningSummary?: "auto" | "concise" | "detailed" | "off" | "on" | null;
	serviceTier?: ResponsesServiceTier | null;
	textVerbosity?: "low" | "medium" | "high";
}

/** Connection statistics of the reference's Codex WebSocket transport; nothing here produces them. */
export interface OpenAICodexWebSocketDebugStats {
	requests: number;
	connectionsCreated: number;
	connectionsReused: number;
	cachedContextRequests: number;
	storeTrueRequests: number;
	fullContextRequests: number;
	deltaRequests: number;
	lastInputItems: number;
	lastDeltaInputItems?: number;
	lastPreviousResponseId?: string;
	websocketFailures: number;
	sseFallbacks: number;
	websocketFallbackActive?: boolean;
	lastWebSocketError?: string;
}
