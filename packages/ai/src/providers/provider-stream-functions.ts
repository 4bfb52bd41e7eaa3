/**
 * Every provider's own stream functions under the reference's names (`streamAnthropic`,
 * `streamSimpleOpenAIResponses`, …), importable from the main entry at no start-up cost: each
 * loads its provider module on its first call (see `lazyBuiltinStream`).
 *
 * The reference also has providers this package does not (Azure OpenAI Responses, Google Vertex,
 * Mistral's Conversations API, the OpenAI Codex subscription). Their names exist so that code
 * importing them compiles; calling one ends its stream at once with an `error` message that says
 * what to use instead (docs/migration.md).
 */
import { AssistantMessageBuilder } from "../assistant-message-builder.js";
import type { AssistantMessageEventStream } from "../event-stream.js";
import type { Api, Context, Model, SimpleStreamOptions, StreamFunction, StreamOptions } from "../types.js";
import type { AnthropicOptions } from "./anthropic-messages.js";
import type { GoogleOptions } from "./google-generative-ai.js";
import type { OpenAICompletionsOptions } from "./openai-completions/options.js";
import type { OpenAIResponsesOptions } from "./openai-responses/options.js";
import { lazyBuiltinStream } from "./register-builtins.js";
import type {
	AzureOpenAIResponsesOptions,
	GoogleVertexOptions,
	MistralOptions,
	OpenAICodexResponsesOptions,
} from "./reference-only-options.js";

/** Streams from Anthropic Messages with its full options. Loads the provider on first call. */
export const streamAnthropic: StreamFunction<"anthropic-messages", AnthropicOptions> = lazyBuiltinStream("anthropic-messages", "stream");
/** Streams from Anthropic Messages with the common options (`reasoning`). Loads the provider on first call. */
export const streamSimpleAnthropic: StreamFunction<"anthropic-messages", SimpleStreamOptions> = lazyBuiltinStream("anthropic-messages", "streamSimple");
/** Streams from OpenAI Chat Completions (and compatible servers). Loads the provider on first call. */
export const streamOpenAICompletions: StreamFunction<"openai-completions", OpenAICompletionsOptions> = lazyBuiltinStream("openai-completions", "stream");
/** Chat Completions with the common options. Loads the provider on first call. */
export const streamSimpleOpenAICompletions: StreamFunction<"openai-completions", SimpleStreamOptions> = lazyBuiltinStream("openai-completions", "streamSimple");
/** Streams from OpenAI Responses. Loads the provider on first call. */
export const streamOpenAIResponses: StreamFunction<"openai-responses", OpenAIResponsesOptions> = lazyBuiltinStream("openai-responses", "stream");
/** OpenAI Responses with the common options. Loads the provider on first call. */
export const streamSimpleOpenAIResponses: StreamFunction<"openai-responses", SimpleStreamOptions> = lazyBuiltinStream("openai-responses", "streamSimple");
/** Streams from the Gemini API (`generateContent`). Loads the provider on first call. */
export const streamGoogle: StreamFunction<"google-generative-ai", GoogleOptions> = lazyBuiltinStream("google-generative-ai", "stream");
/** The Gemini API with the common options. Loads the provider on first call. */
export const streamSimpleGoogle: StreamFunction<"google-generative-ai", SimpleStreamOptions> = lazyBuiltinStream("google-generative-ai", "streamSimple");

/** A stream function for an api this package does not implement: it fails with `advice`. */
function unsupported<TApi extends Api, TOptions extends StreamOptions>(name: string, advice: string): StreamFunction<TApi, TOptions> {
	return (model: Model<TApi>, _context: Context, options?: TOptions): AssistantMessageEventStream => {
		const builder = new AssistantMessageBuilder(model, [options?.apiKey]);
		builder.fail(new Error(`${name} is not available in @pi/ai: ${advice} See docs/migration.md.`));
		return builder.stream;
	};
}

const AZURE = "use api \"openai-responses\" with baseUrl https://<resource>.openai.azure.com/openai/v1 and the key in headers[\"api-key\"].";
const VERTEX = "Vertex AI needs Google Cloud credentials, which this package does not handle; use the Gemini API (api \"google-generative-ai\").";
const MISTRAL = "use api \"openai-completions\" with baseUrl https://api.mistral.ai/v1 (getModels(\"mistral\")).";
const CODEX = "the ChatGPT subscription API needs OAuth, which this package does not implement; use api \"openai-responses\" with an API key.";

/**
 * A reference name with no implementation here: there is no Azure OpenAI provider (Azure's
 * deployment URLs and `api-key` header). Calling it ends the stream at once with an `error`
 * message saying so. Use instead: `streamOpenAIResponses` (api `openai-responses`) with
 * `baseUrl: "https://<resource>.openai.azure.com/openai/v1"` and `headers: { "api-key": key }`.
 */
export const streamAzureOpenAIResponses: StreamFunction<"azure-openai-responses", AzureOpenAIResponsesOptions> = unsupported("streamAzureOpenAIResponses", AZURE);
/** A reference name with no implementation here, like {@link streamAzureOpenAIResponses}: use `streamSimpleOpenAIResponses` with Azure's `baseUrl`. */
export const streamSimpleAzureOpenAIResponses: StreamFunction<"azure-openai-responses", SimpleStreamOptions> = unsupported("streamSimpleAzureOpenAIResponses", AZURE);
/**
 * A reference name with no implementation here: there is no Vertex AI provider (it needs Google
 * Cloud credentials, which this package does not handle). Calling it ends the stream at once
 * with an `error` message saying so. Use instead: the Gemini API, `streamGoogle` (api
 * `google-generative-ai`) with an API key.
 */
export const streamGoogleVertex: StreamFunction<"google-vertex", GoogleVertexOptions> = unsupported("streamGoogleVertex", VERTEX);
/** A reference name with no implementation here, like {@link streamGoogleVertex}: use `streamSimpleGoogle`. */
export const streamSimpleGoogleVertex: StreamFunction<"google-vertex", SimpleStreamOptions> = unsupported("streamSimpleGoogleVertex", VERTEX);
/**
 * A reference name with no implementation here: there is no provider for Mistral's
 * Conversations API. Calling it ends the stream at once with an `error` message saying so. Use
 * instead: `streamOpenAICompletions` (api `openai-completions`) with
 * `baseUrl: "https://api.mistral.ai/v1"`, e.g. a model from `getModels("mistral")`.
 */
export const streamMistral: StreamFunction<"mistral-conversations", MistralOptions> = unsupported("streamMistral", MISTRAL);
/** A reference name with no implementation here, like {@link streamMistral}: use `streamSimpleOpenAICompletions` with Mistral's `baseUrl`. */
export const streamSimpleMistral: StreamFunction<"mistral-conversations", SimpleStreamOptions> = unsupported("streamSimpleMistral", MISTRAL);
/**
 * A reference name with no implementation here: there is no provider for the ChatGPT
 * subscription (Codex) API, which needs an OAuth login this package does not implement. Calling
 * it ends the stream at once with an `error` message saying so. Use instead:
 * `streamOpenAIResponses` (api `openai-responses`) with an OpenAI API key.
 */
export const streamOpenAICodexResponses: StreamFunction<"openai-codex-responses", OpenAICodexResponsesOptions> = unsupported("streamOpenAICodexResponses", CODEX);
/** A reference name with no implementation here, like {@link streamOpenAICodexResponses}: use `streamSimpleOpenAIResponses` with an API key. */
export const streamSimpleOpenAICodexResponses: StreamFunction<"openai-codex-responses", SimpleStreamOptions> = unsupported("streamSimpleOpenAICodexResponses", CODEX);
