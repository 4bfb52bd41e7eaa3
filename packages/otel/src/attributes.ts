/**
 * The names this package records, from the OpenTelemetry GenAI semantic conventions (v1.41.0, as
 * shipped in `@opentelemetry/semantic-conventions` 1.45 `incubating`). Written out here rather
 * than imported: that package is not a run-time dependency, and a test checks each name against it.
 */
export const GEN_AI = {
	operationName: "gen_ai.operation.name",
	providerName: "gen_ai.provider.name",
	agentName: "gen_ai.agent.name",
	conversationId: "gen_ai.conversation.id",
	requestModel: "gen_ai.request.model",
	requestMaxTokens: "gen_ai.request.max_tokens",
	requestTemperature: "gen_ai.request.temperature",
	responseModel: "gen_ai.response.model",
	responseId: "gen_ai.response.id",
	responseFinishReasons: "gen_ai.response.finish_reasons",
	usageInputTokens: "gen_ai.usage.input_tokens",
	usageOutputTokens: "gen_ai.usage.output_tokens",
	usageCacheReadInputTokens: "gen_ai.usage.cache_read.input_tokens",
	usageCacheCreationInputTokens: "gen_ai.usage.cache_creation.input_tokens",
	toolName: "gen_ai.tool.name",
	toolCallId: "gen_ai.tool.call.id",
	toolType: "gen_ai.tool.type",
	toolCallArguments: "gen_ai.tool.call.arguments",
	toolCallResult: "gen_ai.tool.call.result",
	inputMessages: "gen_ai.input.messages",
	outputMessages: "gen_ai.output.messages",
	systemInstructions: "gen_ai.system_instructions",
	tokenType: "gen_ai.token.type",
	serverAddress: "server.address",
	serverPort: "server.port",
	errorType: "error.type",
} as const;

/** The conventions' metric instruments. */
export const GEN_AI_METRICS = {
	tokenUsage: "gen_ai.client.token.usage",
	operationDuration: "gen_ai.client.operation.duration",
} as const;

/** Attributes of this library's own, where the conventions have none. */
export const PI = {
	/** The reply's cost in US dollars, from the model's prices (`usage.cost.total`). */
	costTotal: "pi.usage.cost.total",
	/** The library's own stop reason (`stop`, `toolUse`, `deferred`, …). */
	stopReason: "pi.stop_reason",
	/** The provider's id of a deferred job, on the call that deferred and on the one that redeemed it. */
	deferredId: "pi.deferred.id",
	/** Why a compaction ran: `threshold` or `overflow`. */
	compactionReason: "pi.compaction.reason",
	compactionTokensBefore: "pi.compaction.tokens_before",
	compactionTokensAfter: "pi.compaction.tokens_after",
	/** A run, call or tool that the caller's signal aborted. */
	aborted: "pi.aborted",
} as const;
