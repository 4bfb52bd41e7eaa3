/**
 * Preloaded (`node --import`) before a migration example that would call a real provider: points
 * the built-in OpenAI Responses and Anthropic Messages providers at the replay server whose URL is
 * in MIGRATION_REPLAY_URL, so the example runs offline with its code unchanged. The test that
 * runs the examples starts that server and scripts its responses.
 */
import { registerApiProvider } from "@pi/ai";
import { streamAnthropic, streamSimpleAnthropic } from "@pi/ai/anthropic-messages";
import { streamOpenAIResponses, streamSimpleOpenAIResponses } from "@pi/ai/openai-responses";

const url = process.env.MIGRATION_REPLAY_URL;
if (!url) throw new Error("replay-setup: MIGRATION_REPLAY_URL is not set");
const apiKey = "sk-replay-not-a-real-key";

registerApiProvider({
	api: "openai-responses",
	stream: (model, context, options) => streamOpenAIResponses({ ...model, baseUrl: `${url}/v1` }, context, { ...options, apiKey }),
	streamSimple: (model, context, options) => streamSimpleOpenAIResponses({ ...model, baseUrl: `${url}/v1` }, context, { ...options, apiKey }),
});
registerApiProvider({
	api: "anthropic-messages",
	stream: (model, context, options) => streamAnthropic({ ...model, baseUrl: url }, context, { ...options, apiKey }),
	streamSimple: (model, context, options) => streamSimpleAnthropic({ ...model, baseUrl: url }, context, { ...options, apiKey }),
});
