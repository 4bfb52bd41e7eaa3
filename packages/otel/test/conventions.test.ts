/**
 * The attribute and metric names this package writes out equal the constants of
 * `@opentelemetry/semantic-conventions` (a test-only dependency), and the provider names its
 * well-known values.
 */
import * as semconv from "@opentelemetry/semantic-conventions/incubating";
import { describe, expect, it } from "vitest";
import { GEN_AI, GEN_AI_METRICS } from "../src/index.js";
import { providerName } from "../src/provider-name.js";

const CONSTANT_OF: Record<keyof typeof GEN_AI, string> = {
	operationName: "ATTR_GEN_AI_OPERATION_NAME",
	providerName: "ATTR_GEN_AI_PROVIDER_NAME",
	agentName: "ATTR_GEN_AI_AGENT_NAME",
	conversationId: "ATTR_GEN_AI_CONVERSATION_ID",
	requestModel: "ATTR_GEN_AI_REQUEST_MODEL",
	requestMaxTokens: "ATTR_GEN_AI_REQUEST_MAX_TOKENS",
	requestTemperature: "ATTR_GEN_AI_REQUEST_TEMPERATURE",
	responseModel: "ATTR_GEN_AI_RESPONSE_MODEL",
	responseId: "ATTR_GEN_AI_RESPONSE_ID",
	responseFinishReasons: "ATTR_GEN_AI_RESPONSE_FINISH_REASONS",
	usageInputTokens: "ATTR_GEN_AI_USAGE_INPUT_TOKENS",
	usageOutputTokens: "ATTR_GEN_AI_USAGE_OUTPUT_TOKENS",
	usageCacheReadInputTokens: "ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS",
	usageCacheCreationInputTokens: "ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS",
	toolName: "ATTR_GEN_AI_TOOL_NAME",
	toolCallId: "ATTR_GEN_AI_TOOL_CALL_ID",
	toolType: "ATTR_GEN_AI_TOOL_TYPE",
	toolCallArguments: "ATTR_GEN_AI_TOOL_CALL_ARGUMENTS",
	toolCallResult: "ATTR_GEN_AI_TOOL_CALL_RESULT",
	inputMessages: "ATTR_GEN_AI_INPUT_MESSAGES",
	outputMessages: "ATTR_GEN_AI_OUTPUT_MESSAGES",
	systemInstructions: "ATTR_GEN_AI_SYSTEM_INSTRUCTIONS",
	tokenType: "ATTR_GEN_AI_TOKEN_TYPE",
	serverAddress: "ATTR_SERVER_ADDRESS",
	serverPort: "ATTR_SERVER_PORT",
	errorType: "ATTR_ERROR_TYPE",
};

describe("the semantic conventions", () => {
	it("every attribute name is the conventions' own", () => {
		const constants = semconv as unknown as Record<string, string>;
		for (const [key, value] of Object.entries(GEN_AI)) expect([key, value]).toEqual([key, constants[CONSTANT_OF[key as keyof typeof GEN_AI]]]);
	});

	it("the metric names are the conventions' own", () => {
		expect(GEN_AI_METRICS.tokenUsage).toBe(semconv.METRIC_GEN_AI_CLIENT_TOKEN_USAGE);
		expect(GEN_AI_METRICS.operationDuration).toBe(semconv.METRIC_GEN_AI_CLIENT_OPERATION_DURATION);
	});

	it("providers map to the well-known gen_ai.provider.name values", () => {
		expect(providerName("openai")).toBe(semconv.GEN_AI_PROVIDER_NAME_VALUE_OPENAI);
		expect(providerName("anthropic")).toBe(semconv.GEN_AI_PROVIDER_NAME_VALUE_ANTHROPIC);
		expect(providerName("google")).toBe(semconv.GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI);
		expect(providerName("google-vertex")).toBe(semconv.GEN_AI_PROVIDER_NAME_VALUE_GCP_VERTEX_AI);
		expect(providerName("amazon-bedrock")).toBe(semconv.GEN_AI_PROVIDER_NAME_VALUE_AWS_BEDROCK);
		expect(providerName("azure-openai-responses")).toBe(semconv.GEN_AI_PROVIDER_NAME_VALUE_AZURE_AI_OPENAI);
		expect(providerName("mistral")).toBe(semconv.GEN_AI_PROVIDER_NAME_VALUE_MISTRAL_AI);
		expect(providerName("xai")).toBe(semconv.GEN_AI_PROVIDER_NAME_VALUE_X_AI);
		expect(providerName("groq")).toBe(semconv.GEN_AI_PROVIDER_NAME_VALUE_GROQ);
		expect(providerName("deepseek")).toBe(semconv.GEN_AI_PROVIDER_NAME_VALUE_DEEPSEEK);
		expect(providerName("openrouter")).toBe("openrouter");
	});
});
