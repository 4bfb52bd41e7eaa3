/**
 * @pi/ai: one message model and one streaming event protocol over OpenAI Chat Completions,
 * OpenAI Responses, Anthropic Messages and Google Gemini, written directly over fetch.
 *
 * Importing this module is cheap: providers and typebox's validator load on first use.
 */
export type * from "./types.js";
export { AssistantMessageEventStream, createAssistantMessageEventStream, EventStream, emptyUsage } from "./event-stream.js";
