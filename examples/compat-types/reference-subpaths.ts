/**
 * Type-level compatibility of the reference's provider subpath entries that we ship under the
 * same names (`@mariozechner/pi-ai/anthropic`, `/google`, `/openai-completions`,
 * `/openai-responses`), checked by `tsc` in the examples package's typecheck task (CI), like
 * reference-exports.ts for the main entries. Nothing here runs.
 *
 * `@pi/ai/anthropic` and `@pi/ai/google` are aliases of `@pi/ai/anthropic-messages` and
 * `@pi/ai/google-generative-ai` (the same built file). For each entry: every runtime export of the
 * reference's exists in ours, each exported type of the reference's fits ours, and each stream
 * function can be called with the reference's arguments.
 */
import type * as RefAnthropic from "@mariozechner/pi-ai/anthropic";
import type * as RefGoogle from "@mariozechner/pi-ai/google";
import type * as RefCompletions from "@mariozechner/pi-ai/openai-completions";
import type * as RefResponses from "@mariozechner/pi-ai/openai-responses";
import type * as Anthropic from "@pi/ai/anthropic";
import type * as Google from "@pi/ai/google";
import type * as Completions from "@pi/ai/openai-completions";
import type * as Responses from "@pi/ai/openai-responses";

type Assert<T extends true> = T;
type Assignable<From, To> = [From] extends [To] ? true : false;
type NoneMissing<T> = [T] extends [never] ? true : false;
type CallableAlike<Ref, Ours> = Ref extends (...args: infer A) => unknown ? (Ours extends (...args: infer B) => unknown ? Assignable<A, B> : false) : true;

// Every runtime export of each reference subpath exists in ours.
export type AnthropicValuesPresent = Assert<NoneMissing<Exclude<keyof typeof RefAnthropic, keyof typeof Anthropic>>>;
export type GoogleValuesPresent = Assert<NoneMissing<Exclude<keyof typeof RefGoogle, keyof typeof Google>>>;
export type CompletionsValuesPresent = Assert<NoneMissing<Exclude<keyof typeof RefCompletions, keyof typeof Completions>>>;
export type ResponsesValuesPresent = Assert<NoneMissing<Exclude<keyof typeof RefResponses, keyof typeof Responses>>>;

// `@mariozechner/pi-ai/anthropic`
export type AnthropicEffort = Assert<Assignable<RefAnthropic.AnthropicEffort, Anthropic.AnthropicEffort>>;
export type AnthropicThinkingDisplay = Assert<Assignable<RefAnthropic.AnthropicThinkingDisplay, Anthropic.AnthropicThinkingDisplay>>;
export type AnthropicOptions = Assert<Assignable<RefAnthropic.AnthropicOptions, Anthropic.AnthropicOptions>>;
export type StreamAnthropic = Assert<CallableAlike<typeof RefAnthropic.streamAnthropic, typeof Anthropic.streamAnthropic>>;
export type StreamSimpleAnthropic = Assert<CallableAlike<typeof RefAnthropic.streamSimpleAnthropic, typeof Anthropic.streamSimpleAnthropic>>;

// `@mariozechner/pi-ai/google`
export type GoogleOptions = Assert<Assignable<RefGoogle.GoogleOptions, Google.GoogleOptions>>;
export type StreamGoogle = Assert<CallableAlike<typeof RefGoogle.streamGoogle, typeof Google.streamGoogle>>;
export type StreamSimpleGoogle = Assert<CallableAlike<typeof RefGoogle.streamSimpleGoogle, typeof Google.streamSimpleGoogle>>;

// `@mariozechner/pi-ai/openai-completions`. Its `convertMessages(model, context, compat)` takes the
// reference's resolved compat object, which ours resolves differently (docs/migration.md): the
// name exists (checked above), its signature is ours.
export type OpenAICompletionsOptions = Assert<Assignable<RefCompletions.OpenAICompletionsOptions, Completions.OpenAICompletionsOptions>>;
export type StreamOpenAICompletions = Assert<CallableAlike<typeof RefCompletions.streamOpenAICompletions, typeof Completions.streamOpenAICompletions>>;
export type StreamSimpleOpenAICompletions = Assert<CallableAlike<typeof RefCompletions.streamSimpleOpenAICompletions, typeof Completions.streamSimpleOpenAICompletions>>;

// `@mariozechner/pi-ai/openai-responses`
export type OpenAIResponsesOptions = Assert<Assignable<RefResponses.OpenAIResponsesOptions, Responses.OpenAIResponsesOptions>>;
export type StreamOpenAIResponses = Assert<CallableAlike<typeof RefResponses.streamOpenAIResponses, typeof Responses.streamOpenAIResponses>>;
export type StreamSimpleOpenAIResponses = Assert<CallableAlike<typeof RefResponses.streamSimpleOpenAIResponses, typeof Responses.streamSimpleOpenAIResponses>>;
