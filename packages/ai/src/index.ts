/**
 * @pi/ai: one message model and one streaming event protocol over OpenAI Chat Completions,
 * OpenAI Responses, Anthropic Messages and Google Gemini, written directly over fetch.
 *
 * Importing this module is cheap: providers and typebox's validator load on first use.
 */
export type * from "./types.js";
export { AssistantMessageEventStream, createAssistantMessageEventStream, EventStream, emptyUsage } from "./event-stream.js";
export {
	AssistantMessageBuilder,
	type FinishDetails,
	type FinishReason,
	toolArgumentsError,
	type UsageCounts,
} from "./assistant-message-builder.js";
export { createProviderStream } from "./provider-stream.js";
export {
	type ApiProvider,
	clearApiProviders,
	getApiProvider,
	getApiProviders,
	registerApiProvider,
	unregisterApiProviders,
} from "./api-registry.js";
export { registerBuiltInApiProviders, registerBuiltinApiProviders, resetApiProviders } from "./providers/register-builtins.js";
export { complete, completeSimple, stream, streamSimple } from "./stream.js";
export { cancelDeferred, fetchDeferred, streamDeferred } from "./stream-deferred.js";
export { calculateCost } from "./cost.js";
export { defineModel, type ModelDefinition } from "./define-model.js";
export { ApiCallError, IdleTimeoutError } from "./http/api-call-error.js";
export { DEFAULT_MAX_EVENT_BYTES } from "./http/event-size-limit.js";
export {
	DEFAULT_IDLE_TIMEOUT_MS,
	DEFAULT_MAX_RETRIES,
	DEFAULT_MAX_RETRY_DELAY_MS,
	type EventStreamRequest,
	postEventStream,
	postEventStreamBatches,
	type ServerSentEvent,
	transportOptions,
} from "./http/post-event-stream.js";
export type { HttpRequest, TransportOptions } from "./http/request-options.js";
export { DEFAULT_MAX_JSON_DEPTH, StreamingJsonError, StreamingJsonParser, type StreamingJsonParserOptions, parseStreamingJson } from "./utils/streaming-json.js";
export {
	fauxAssistantMessage,
	type FauxContentBlock,
	type FauxDeferredJob,
	type FauxModelDefinition,
	type FauxProviderRegistration,
	type FauxResponseFactory,
	type FauxResponseStep,
	fauxText,
	fauxThinking,
	fauxToolCall,
	type RegisterFauxProviderOptions,
	registerFauxProvider,
} from "./providers/faux.js";
export { formatSchemaErrors, parseToolArguments, validateToolArguments, validateToolCall } from "./validation/validate-tool-arguments.js";
export { isStandardSchema, type JsonSchemaObject, type ResolvedSchema, resolveSchema, type SchemaValidation } from "./validation/resolve-schema.js";
export { formatStandardIssues } from "./validation/format-standard-issues.js";
export type {
	JsonSchemaTarget,
	SchemaOutput,
	StandardJSONSchemaV1,
	StandardSchemaIssue,
	StandardSchemaProps,
	StandardSchemaResult,
	StandardSchemaV1,
	StandardToolSchema,
	ToolSchema,
} from "./validation/standard-schema.js";
export { preloadToolValidator } from "./validation/load-schema-compiler.js";
export {
	IMAGE_OMITTED_TEXT,
	MISSING_TOOL_RESULT_TEXT,
	sanitizeToolCallId,
	type NormalizeToolCallId,
	type TransformOptions,
	transformMessages,
	UNFINISHED_TOOL_CALL_TEXT,
} from "./transform-messages.js";
export {
	type CatalogProvider,
	getModel,
	getModels,
	getProviders,
	type KnownModelApi,
	type KnownModelId,
	modelsAreEqual,
} from "./models.js";
export { getEnvApiKey, getEnvApiKeyNames } from "./env-api-keys.js";
export { CONTEXT_OVERFLOW_PATTERNS, isContextOverflow } from "./context-overflow.js";
export type { OpenAICompletionsOptions } from "./providers/openai-completions/options.js";
export type { ResolvedOpenAICompletionsCompat } from "./providers/openai-completions/detect-compat.js";
export type { AnthropicEffort, AnthropicOptions, AnthropicToolChoiceOption } from "./providers/anthropic-messages.js";
export type { GoogleCompat, GoogleOptions, GoogleThinkingLevel } from "./providers/google-generative-ai.js";
export type { OpenAIResponsesOptions } from "./providers/openai-responses/options.js";
export type {
	ResponsesReasoningEffort,
	ResponsesReasoningSummary,
	ResponsesServiceTier,
	ResponsesToolChoice,
} from "./providers/openai-responses/wire-types.js";

// --- Names of @mariozechner/pi-ai 0.73.1 (docs/migration.md). All cheap at import: provider
// modules and typebox load on first use. ---
export {
	streamAnthropic,
	streamAzureOpenAIResponses,
	streamGoogle,
	streamGoogleVertex,
	streamMistral,
	streamOpenAICodexResponses,
	streamOpenAICompletions,
	streamOpenAIResponses,
	streamSimpleAnthropic,
	streamSimpleAzureOpenAIResponses,
	streamSimpleGoogle,
	streamSimpleGoogleVertex,
	streamSimpleMistral,
	streamSimpleOpenAICodexResponses,
	streamSimpleOpenAICompletions,
	streamSimpleOpenAIResponses,
} from "./providers/provider-stream-functions.js";
export type {
	AzureOpenAIResponsesOptions,
	BedrockOptions,
	BedrockThinkingDisplay,
	GoogleVertexOptions,
	MistralOptions,
	OpenAICodexResponsesOptions,
	OpenAICodexWebSocketDebugStats,
} from "./providers/reference-only-options.js";
export { type BedrockProviderModule, setBedrockProviderModule } from "./providers/bedrock-module.js";
export type { ApiStreamFunction, ApiStreamSimpleFunction } from "./api-registry.js";
export { clampThinkingLevel, getSupportedThinkingLevels } from "./thinking-levels.js";
export { resolveCacheRetention } from "./cache-retention.js";
export { loadTypebox, StringEnum, Type } from "./typebox-lazy.js";
export { getOverflowPatterns } from "./context-overflow.js";
export { parseJsonWithRepair, repairJson } from "./utils/json-repair.js";
export { findEnvKeys } from "./env-api-keys.js";
export {
	appendAssistantMessageDiagnostic,
	createAssistantMessageDiagnostic,
	extractDiagnosticError,
	formatThrownValue,
} from "./diagnostics.js";
export { cleanupSessionResources, registerSessionResourceCleanup, type SessionResourceCleanup } from "./session-resources.js";
export type { AnthropicThinkingDisplay } from "./providers/anthropic-messages.js";
export type { AssistantMessageEventSource } from "./event-stream.js";
export type {
	OAuthAuthInfo,
	OAuthCredentials,
	OAuthLoginCallbacks,
	OAuthPrompt,
	OAuthProvider,
	OAuthProviderId,
	OAuthProviderInfo,
	OAuthProviderInterface,
	OAuthSelectOption,
	OAuthSelectPrompt,
} from "./oauth-types.js";
