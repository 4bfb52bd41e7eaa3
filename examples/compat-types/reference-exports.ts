/**
 * Type-level compatibility with @mariozechner/pi-ai and @mariozechner/pi-agent-core 0.73.1,
 * checked by `tsc` in the examples package's typecheck task (CI). Nothing here runs.
 *
 * For every export of both reference packages (test/reference-compat-coverage.test.ts checks
 * that each one is named here):
 * - the same name exists in ours: a missing one is a compile error on its line;
 * - a data type of the reference is assignable to ours (a value built for the reference fits);
 * - a function of the reference can be called with the same arguments on ours.
 * Where a deliberate difference (docs/migration.md) makes the assignability check impossible,
 * the line checks the name only and says why; user-code.reference.ts / user-code.pi.ts then
 * show the same source compiling against both.
 */
import type * as RefAgent from "@mariozechner/pi-agent-core";
import type * as RefAi from "@mariozechner/pi-ai";
import type * as Agent from "@pi/agent-core";
import type * as Ai from "@pi/ai";

type Assert<T extends true> = T;
type Assignable<From, To> = [From] extends [To] ? true : false;
type NoneMissing<T> = [T] extends [never] ? true : false;
/** Calls written for the reference's function compile against ours. */
type CallableAlike<Ref, Ours> = Ref extends (...args: infer A) => unknown ? (Ours extends (...args: infer B) => unknown ? Assignable<A, B> : false) : true;
/** A name that exists (as a type) in ours, whatever its shape. */
type Exists<T> = T extends unknown ? true : true;

// Every runtime export of the reference exists in ours.
export type AiValuesPresent = Assert<NoneMissing<Exclude<keyof typeof RefAi, keyof typeof Ai>>>;
export type AgentValuesPresent = Assert<NoneMissing<Exclude<keyof typeof RefAgent, keyof typeof Agent>>>;


// ---- RefAi: runtime exports ----
export type V_ai_AssistantMessageEventStream = Assert<CallableAlike<typeof RefAi.AssistantMessageEventStream, typeof Ai.AssistantMessageEventStream>>;
export type V_ai_EventStream = Assert<CallableAlike<typeof RefAi.EventStream, typeof Ai.EventStream>>;
export type V_ai_StringEnum = Assert<CallableAlike<typeof RefAi.StringEnum, typeof Ai.StringEnum>>;
export type V_ai_Type = Assert<CallableAlike<typeof RefAi.Type, typeof Ai.Type>>;
export type V_ai_appendAssistantMessageDiagnostic = Assert<CallableAlike<typeof RefAi.appendAssistantMessageDiagnostic, typeof Ai.appendAssistantMessageDiagnostic>>;
export type V_ai_calculateCost = Assert<CallableAlike<typeof RefAi.calculateCost, typeof Ai.calculateCost>>;
export type V_ai_clampThinkingLevel = Assert<CallableAlike<typeof RefAi.clampThinkingLevel, typeof Ai.clampThinkingLevel>>;
export type V_ai_cleanupSessionResources = Assert<CallableAlike<typeof RefAi.cleanupSessionResources, typeof Ai.cleanupSessionResources>>;
export type V_ai_clearApiProviders = Assert<CallableAlike<typeof RefAi.clearApiProviders, typeof Ai.clearApiProviders>>;
export type V_ai_complete = Assert<CallableAlike<typeof RefAi.complete, typeof Ai.complete>>;
export type V_ai_completeSimple = Assert<CallableAlike<typeof RefAi.completeSimple, typeof Ai.completeSimple>>;
export type V_ai_createAssistantMessageDiagnostic = Assert<CallableAlike<typeof RefAi.createAssistantMessageDiagnostic, typeof Ai.createAssistantMessageDiagnostic>>;
export type V_ai_createAssistantMessageEventStream = Assert<CallableAlike<typeof RefAi.createAssistantMessageEventStream, typeof Ai.createAssistantMessageEventStream>>;
export type V_ai_extractDiagnosticError = Assert<CallableAlike<typeof RefAi.extractDiagnosticError, typeof Ai.extractDiagnosticError>>;
export type V_ai_fauxAssistantMessage = Assert<CallableAlike<typeof RefAi.fauxAssistantMessage, typeof Ai.fauxAssistantMessage>>;
export type V_ai_fauxText = Assert<CallableAlike<typeof RefAi.fauxText, typeof Ai.fauxText>>;
export type V_ai_fauxThinking = Assert<CallableAlike<typeof RefAi.fauxThinking, typeof Ai.fauxThinking>>;
export type V_ai_fauxToolCall = Assert<CallableAlike<typeof RefAi.fauxToolCall, typeof Ai.fauxToolCall>>;
export type V_ai_findEnvKeys = Assert<CallableAlike<typeof RefAi.findEnvKeys, typeof Ai.findEnvKeys>>;
export type V_ai_formatThrownValue = Assert<CallableAlike<typeof RefAi.formatThrownValue, typeof Ai.formatThrownValue>>;
export type V_ai_getApiProvider = Assert<CallableAlike<typeof RefAi.getApiProvider, typeof Ai.getApiProvider>>;
export type V_ai_getApiProviders = Assert<CallableAlike<typeof RefAi.getApiProviders, typeof Ai.getApiProviders>>;
export type V_ai_getEnvApiKey = Assert<CallableAlike<typeof RefAi.getEnvApiKey, typeof Ai.getEnvApiKey>>;
export type V_ai_getModel = Assert<CallableAlike<typeof RefAi.getModel, typeof Ai.getModel>>;
export type V_ai_getModels = Assert<CallableAlike<typeof RefAi.getModels, typeof Ai.getModels>>;
export type V_ai_getOverflowPatterns = Assert<CallableAlike<typeof RefAi.getOverflowPatterns, typeof Ai.getOverflowPatterns>>;
export type V_ai_getProviders = Assert<CallableAlike<typeof RefAi.getProviders, typeof Ai.getProviders>>;
export type V_ai_getSupportedThinkingLevels = Assert<CallableAlike<typeof RefAi.getSupportedThinkingLevels, typeof Ai.getSupportedThinkingLevels>>;
export type V_ai_isContextOverflow = Assert<CallableAlike<typeof RefAi.isContextOverflow, typeof Ai.isContextOverflow>>;
export type V_ai_modelsAreEqual = Assert<CallableAlike<typeof RefAi.modelsAreEqual, typeof Ai.modelsAreEqual>>;
export type V_ai_parseJsonWithRepair = Assert<CallableAlike<typeof RefAi.parseJsonWithRepair, typeof Ai.parseJsonWithRepair>>;
// parseStreamingJson: ours parses complete JSON strictly (and throws); the reference's is a lenient partial parser (docs/migration.md "parseStreamingJson").
export type V_ai_parseStreamingJson = Assert<Exists<typeof Ai.parseStreamingJson>>;
// registerApiProvider: returns @pi/ai's own AssistantMessageEventStream class (private fields make classes nominal); code that builds streams with createAssistantMessageEventStream() compiles unchanged (user-code.*.ts).
export type V_ai_registerApiProvider = Assert<Exists<typeof Ai.registerApiProvider>>;
export type V_ai_registerBuiltInApiProviders = Assert<CallableAlike<typeof RefAi.registerBuiltInApiProviders, typeof Ai.registerBuiltInApiProviders>>;
export type V_ai_registerFauxProvider = Assert<CallableAlike<typeof RefAi.registerFauxProvider, typeof Ai.registerFauxProvider>>;
export type V_ai_registerSessionResourceCleanup = Assert<CallableAlike<typeof RefAi.registerSessionResourceCleanup, typeof Ai.registerSessionResourceCleanup>>;
export type V_ai_repairJson = Assert<CallableAlike<typeof RefAi.repairJson, typeof Ai.repairJson>>;
export type V_ai_resetApiProviders = Assert<CallableAlike<typeof RefAi.resetApiProviders, typeof Ai.resetApiProviders>>;
// setBedrockProviderModule: callbacks receive our AssistantMessage, whose stopReason also has "pending" and "deferred" (docs/migration.md "Stop reasons"); the same source compiles against both in user-code.*.ts.
export type V_ai_setBedrockProviderModule = Assert<Exists<typeof Ai.setBedrockProviderModule>>;
export type V_ai_stream = Assert<CallableAlike<typeof RefAi.stream, typeof Ai.stream>>;
export type V_ai_streamAnthropic = Assert<CallableAlike<typeof RefAi.streamAnthropic, typeof Ai.streamAnthropic>>;
export type V_ai_streamAzureOpenAIResponses = Assert<CallableAlike<typeof RefAi.streamAzureOpenAIResponses, typeof Ai.streamAzureOpenAIResponses>>;
export type V_ai_streamGoogle = Assert<CallableAlike<typeof RefAi.streamGoogle, typeof Ai.streamGoogle>>;
export type V_ai_streamGoogleVertex = Assert<CallableAlike<typeof RefAi.streamGoogleVertex, typeof Ai.streamGoogleVertex>>;
export type V_ai_streamMistral = Assert<CallableAlike<typeof RefAi.streamMistral, typeof Ai.streamMistral>>;
export type V_ai_streamOpenAICodexResponses = Assert<CallableAlike<typeof RefAi.streamOpenAICodexResponses, typeof Ai.streamOpenAICodexResponses>>;
export type V_ai_streamOpenAICompletions = Assert<CallableAlike<typeof RefAi.streamOpenAICompletions, typeof Ai.streamOpenAICompletions>>;
export type V_ai_streamOpenAIResponses = Assert<CallableAlike<typeof RefAi.streamOpenAIResponses, typeof Ai.streamOpenAIResponses>>;
export type V_ai_streamSimple = Assert<CallableAlike<typeof RefAi.streamSimple, typeof Ai.streamSimple>>;
export type V_ai_streamSimpleAnthropic = Assert<CallableAlike<typeof RefAi.streamSimpleAnthropic, typeof Ai.streamSimpleAnthropic>>;
export type V_ai_streamSimpleAzureOpenAIResponses = Assert<CallableAlike<typeof RefAi.streamSimpleAzureOpenAIResponses, typeof Ai.streamSimpleAzureOpenAIResponses>>;
export type V_ai_streamSimpleGoogle = Assert<CallableAlike<typeof RefAi.streamSimpleGoogle, typeof Ai.streamSimpleGoogle>>;
export type V_ai_streamSimpleGoogleVertex = Assert<CallableAlike<typeof RefAi.streamSimpleGoogleVertex, typeof Ai.streamSimpleGoogleVertex>>;
export type V_ai_streamSimpleMistral = Assert<CallableAlike<typeof RefAi.streamSimpleMistral, typeof Ai.streamSimpleMistral>>;
export type V_ai_streamSimpleOpenAICodexResponses = Assert<CallableAlike<typeof RefAi.streamSimpleOpenAICodexResponses, typeof Ai.streamSimpleOpenAICodexResponses>>;
export type V_ai_streamSimpleOpenAICompletions = Assert<CallableAlike<typeof RefAi.streamSimpleOpenAICompletions, typeof Ai.streamSimpleOpenAICompletions>>;
export type V_ai_streamSimpleOpenAIResponses = Assert<CallableAlike<typeof RefAi.streamSimpleOpenAIResponses, typeof Ai.streamSimpleOpenAIResponses>>;
export type V_ai_unregisterApiProviders = Assert<CallableAlike<typeof RefAi.unregisterApiProviders, typeof Ai.unregisterApiProviders>>;
export type V_ai_validateToolArguments = Assert<CallableAlike<typeof RefAi.validateToolArguments, typeof Ai.validateToolArguments>>;
export type V_ai_validateToolCall = Assert<CallableAlike<typeof RefAi.validateToolCall, typeof Ai.validateToolCall>>;

// ---- RefAi: types ----
export type T_ai_AnthropicEffort = Assert<Assignable<RefAi.AnthropicEffort, Ai.AnthropicEffort>>;
export type T_ai_AnthropicMessagesCompat = Assert<Assignable<RefAi.AnthropicMessagesCompat, Ai.AnthropicMessagesCompat>>;
export type T_ai_AnthropicOptions = Assert<Assignable<RefAi.AnthropicOptions, Ai.AnthropicOptions>>;
export type T_ai_AnthropicThinkingDisplay = Assert<Assignable<RefAi.AnthropicThinkingDisplay, Ai.AnthropicThinkingDisplay>>;
export type T_ai_Api = Assert<Assignable<RefAi.Api, Ai.Api>>;
// ApiProvider: returns @pi/ai's own AssistantMessageEventStream class (private fields make classes nominal); code that builds streams with createAssistantMessageEventStream() compiles unchanged (user-code.*.ts).
export type T_ai_ApiProvider = Assert<Exists<Ai.ApiProvider>>;
// ApiStreamFunction: returns @pi/ai's own AssistantMessageEventStream class (private fields make classes nominal); code that builds streams with createAssistantMessageEventStream() compiles unchanged (user-code.*.ts).
export type T_ai_ApiStreamFunction = Assert<Exists<Ai.ApiStreamFunction>>;
// ApiStreamSimpleFunction: returns @pi/ai's own AssistantMessageEventStream class (private fields make classes nominal); code that builds streams with createAssistantMessageEventStream() compiles unchanged (user-code.*.ts).
export type T_ai_ApiStreamSimpleFunction = Assert<Exists<Ai.ApiStreamSimpleFunction>>;
export type T_ai_AssistantMessage = Assert<Assignable<RefAi.AssistantMessage, Ai.AssistantMessage>>;
export type T_ai_AssistantMessageDiagnostic = Assert<Assignable<RefAi.AssistantMessageDiagnostic, Ai.AssistantMessageDiagnostic>>;
export type T_ai_AssistantMessageEvent = Assert<Assignable<RefAi.AssistantMessageEvent, Ai.AssistantMessageEvent>>;
export type T_ai_AzureOpenAIResponsesOptions = Assert<Assignable<RefAi.AzureOpenAIResponsesOptions, Ai.AzureOpenAIResponsesOptions>>;
export type T_ai_BedrockOptions = Assert<Assignable<RefAi.BedrockOptions, Ai.BedrockOptions>>;
export type T_ai_BedrockThinkingDisplay = Assert<Assignable<RefAi.BedrockThinkingDisplay, Ai.BedrockThinkingDisplay>>;
export type T_ai_CacheRetention = Assert<Assignable<RefAi.CacheRetention, Ai.CacheRetention>>;
export type T_ai_Context = Assert<Assignable<RefAi.Context, Ai.Context>>;
export type T_ai_DiagnosticErrorInfo = Assert<Assignable<RefAi.DiagnosticErrorInfo, Ai.DiagnosticErrorInfo>>;
export type T_ai_FauxContentBlock = Assert<Assignable<RefAi.FauxContentBlock, Ai.FauxContentBlock>>;
export type T_ai_FauxModelDefinition = Assert<Assignable<RefAi.FauxModelDefinition, Ai.FauxModelDefinition>>;
// FauxProviderRegistration: callbacks receive our AssistantMessage, whose stopReason also has "pending" and "deferred" (docs/migration.md "Stop reasons"); the same source compiles against both in user-code.*.ts.
export type T_ai_FauxProviderRegistration = Assert<Exists<Ai.FauxProviderRegistration>>;
// FauxResponseFactory: callbacks receive our AssistantMessage, whose stopReason also has "pending" and "deferred" (docs/migration.md "Stop reasons"); the same source compiles against both in user-code.*.ts.
export type T_ai_FauxResponseFactory = Assert<Exists<Ai.FauxResponseFactory>>;
// FauxResponseStep: callbacks receive our AssistantMessage, whose stopReason also has "pending" and "deferred" (docs/migration.md "Stop reasons"); the same source compiles against both in user-code.*.ts.
export type T_ai_FauxResponseStep = Assert<Exists<Ai.FauxResponseStep>>;
export type T_ai_GoogleOptions = Assert<Assignable<RefAi.GoogleOptions, Ai.GoogleOptions>>;
export type T_ai_GoogleThinkingLevel = Assert<Assignable<RefAi.GoogleThinkingLevel, Ai.GoogleThinkingLevel>>;
export type T_ai_GoogleVertexOptions = Assert<Assignable<RefAi.GoogleVertexOptions, Ai.GoogleVertexOptions>>;
export type T_ai_ImageContent = Assert<Assignable<RefAi.ImageContent, Ai.ImageContent>>;
export type T_ai_KnownApi = Assert<Assignable<RefAi.KnownApi, Ai.KnownApi>>;
export type T_ai_KnownProvider = Assert<Assignable<RefAi.KnownProvider, Ai.KnownProvider>>;
export type T_ai_Message = Assert<Assignable<RefAi.Message, Ai.Message>>;
export type T_ai_MistralOptions = Assert<Assignable<RefAi.MistralOptions, Ai.MistralOptions>>;
export type T_ai_Model = Assert<Assignable<RefAi.Model<RefAi.Api>, Ai.Model<Ai.Api>>>;
export type T_ai_ModelThinkingLevel = Assert<Assignable<RefAi.ModelThinkingLevel, Ai.ModelThinkingLevel>>;
export type T_ai_OAuthAuthInfo = Assert<Assignable<RefAi.OAuthAuthInfo, Ai.OAuthAuthInfo>>;
export type T_ai_OAuthCredentials = Assert<Assignable<RefAi.OAuthCredentials, Ai.OAuthCredentials>>;
export type T_ai_OAuthLoginCallbacks = Assert<Assignable<RefAi.OAuthLoginCallbacks, Ai.OAuthLoginCallbacks>>;
export type T_ai_OAuthPrompt = Assert<Assignable<RefAi.OAuthPrompt, Ai.OAuthPrompt>>;
export type T_ai_OAuthProvider = Assert<Assignable<RefAi.OAuthProvider, Ai.OAuthProvider>>;
export type T_ai_OAuthProviderId = Assert<Assignable<RefAi.OAuthProviderId, Ai.OAuthProviderId>>;
export type T_ai_OAuthProviderInfo = Assert<Assignable<RefAi.OAuthProviderInfo, Ai.OAuthProviderInfo>>;
export type T_ai_OAuthProviderInterface = Assert<Assignable<RefAi.OAuthProviderInterface, Ai.OAuthProviderInterface>>;
export type T_ai_OAuthSelectOption = Assert<Assignable<RefAi.OAuthSelectOption, Ai.OAuthSelectOption>>;
export type T_ai_OAuthSelectPrompt = Assert<Assignable<RefAi.OAuthSelectPrompt, Ai.OAuthSelectPrompt>>;
export type T_ai_OpenAICodexResponsesOptions = Assert<Assignable<RefAi.OpenAICodexResponsesOptions, Ai.OpenAICodexResponsesOptions>>;
export type T_ai_OpenAICodexWebSocketDebugStats = Assert<Assignable<RefAi.OpenAICodexWebSocketDebugStats, Ai.OpenAICodexWebSocketDebugStats>>;
export type T_ai_OpenAICompletionsCompat = Assert<Assignable<RefAi.OpenAICompletionsCompat, Ai.OpenAICompletionsCompat>>;
export type T_ai_OpenAICompletionsOptions = Assert<Assignable<RefAi.OpenAICompletionsOptions, Ai.OpenAICompletionsOptions>>;
export type T_ai_OpenAIResponsesCompat = Assert<Assignable<RefAi.OpenAIResponsesCompat, Ai.OpenAIResponsesCompat>>;
export type T_ai_OpenAIResponsesOptions = Assert<Assignable<RefAi.OpenAIResponsesOptions, Ai.OpenAIResponsesOptions>>;
export type T_ai_OpenRouterRouting = Assert<Assignable<RefAi.OpenRouterRouting, Ai.OpenRouterRouting>>;
export type T_ai_Provider = Assert<Assignable<RefAi.Provider, Ai.Provider>>;
export type T_ai_ProviderResponse = Assert<Assignable<RefAi.ProviderResponse, Ai.ProviderResponse>>;
export type T_ai_ProviderStreamOptions = Assert<Assignable<RefAi.ProviderStreamOptions, Ai.ProviderStreamOptions>>;
export type T_ai_RegisterFauxProviderOptions = Assert<Assignable<RefAi.RegisterFauxProviderOptions, Ai.RegisterFauxProviderOptions>>;
export type T_ai_SessionResourceCleanup = Assert<Assignable<RefAi.SessionResourceCleanup, Ai.SessionResourceCleanup>>;
export type T_ai_SimpleStreamOptions = Assert<Assignable<RefAi.SimpleStreamOptions, Ai.SimpleStreamOptions>>;
export type T_ai_StopReason = Assert<Assignable<RefAi.StopReason, Ai.StopReason>>;
// StreamFunction: returns @pi/ai's own AssistantMessageEventStream class (private fields make classes nominal); code that builds streams with createAssistantMessageEventStream() compiles unchanged (user-code.*.ts).
export type T_ai_StreamFunction = Assert<Exists<Ai.StreamFunction>>;
export type T_ai_StreamOptions = Assert<Assignable<RefAi.StreamOptions, Ai.StreamOptions>>;
export type T_ai_TextContent = Assert<Assignable<RefAi.TextContent, Ai.TextContent>>;
export type T_ai_TextSignatureV1 = Assert<Assignable<RefAi.TextSignatureV1, Ai.TextSignatureV1>>;
export type T_ai_ThinkingBudgets = Assert<Assignable<RefAi.ThinkingBudgets, Ai.ThinkingBudgets>>;
export type T_ai_ThinkingContent = Assert<Assignable<RefAi.ThinkingContent, Ai.ThinkingContent>>;
export type T_ai_ThinkingLevel = Assert<Assignable<RefAi.ThinkingLevel, Ai.ThinkingLevel>>;
export type T_ai_ThinkingLevelMap = Assert<Assignable<RefAi.ThinkingLevelMap, Ai.ThinkingLevelMap>>;
export type T_ai_Tool = Assert<Assignable<RefAi.Tool, Ai.Tool>>;
export type T_ai_ToolCall = Assert<Assignable<RefAi.ToolCall, Ai.ToolCall>>;
export type T_ai_ToolResultMessage = Assert<Assignable<RefAi.ToolResultMessage, Ai.ToolResultMessage>>;
export type T_ai_Transport = Assert<Assignable<RefAi.Transport, Ai.Transport>>;
export type T_ai_Usage = Assert<Assignable<RefAi.Usage, Ai.Usage>>;
export type T_ai_UserMessage = Assert<Assignable<RefAi.UserMessage, Ai.UserMessage>>;
export type T_ai_VercelGatewayRouting = Assert<Assignable<RefAi.VercelGatewayRouting, Ai.VercelGatewayRouting>>;
export type T_ai_Static = Assert<Assignable<RefAi.Static<RefAi.TSchema>, Ai.Static<Ai.TSchema>>>;
export type T_ai_TSchema = Assert<Assignable<RefAi.TSchema, Ai.TSchema>>;

// ---- RefAgent: runtime exports ----
export type V_agent_Agent = Assert<CallableAlike<typeof RefAgent.Agent, typeof Agent.Agent>>;
// agentLoop: callbacks receive our AssistantMessage, whose stopReason also has "pending" and "deferred" (docs/migration.md "Stop reasons"); the same source compiles against both in user-code.*.ts.
export type V_agent_agentLoop = Assert<Exists<typeof Agent.agentLoop>>;
// agentLoopContinue: callbacks receive our AssistantMessage, whose stopReason also has "pending" and "deferred" (docs/migration.md "Stop reasons"); the same source compiles against both in user-code.*.ts.
export type V_agent_agentLoopContinue = Assert<Exists<typeof Agent.agentLoopContinue>>;
// runAgentLoop: callbacks receive our AssistantMessage, whose stopReason also has "pending" and "deferred" (docs/migration.md "Stop reasons"); the same source compiles against both in user-code.*.ts.
export type V_agent_runAgentLoop = Assert<Exists<typeof Agent.runAgentLoop>>;
// runAgentLoopContinue: callbacks receive our AssistantMessage, whose stopReason also has "pending" and "deferred" (docs/migration.md "Stop reasons"); the same source compiles against both in user-code.*.ts.
export type V_agent_runAgentLoopContinue = Assert<Exists<typeof Agent.runAgentLoopContinue>>;
export type V_agent_streamProxy = Assert<CallableAlike<typeof RefAgent.streamProxy, typeof Agent.streamProxy>>;

// ---- RefAgent: types ----
export type T_agent_AfterToolCallContext = Assert<Assignable<RefAgent.AfterToolCallContext, Agent.AfterToolCallContext>>;
export type T_agent_AfterToolCallResult = Assert<Assignable<RefAgent.AfterToolCallResult, Agent.AfterToolCallResult>>;
export type T_agent_AgentContext = Assert<Assignable<RefAgent.AgentContext, Agent.AgentContext>>;
export type T_agent_AgentEvent = Assert<Assignable<RefAgent.AgentEvent, Agent.AgentEvent>>;
// AgentEventSink: callbacks receive our AssistantMessage, whose stopReason also has "pending" and "deferred" (docs/migration.md "Stop reasons"); the same source compiles against both in user-code.*.ts.
export type T_agent_AgentEventSink = Assert<Exists<Agent.AgentEventSink>>;
// AgentLoopConfig: callbacks receive our AssistantMessage, whose stopReason also has "pending" and "deferred" (docs/migration.md "Stop reasons"); the same source compiles against both in user-code.*.ts.
export type T_agent_AgentLoopConfig = Assert<Exists<Agent.AgentLoopConfig>>;
export type T_agent_AgentMessage = Assert<Assignable<RefAgent.AgentMessage, Agent.AgentMessage>>;
// AgentOptions: callbacks receive our AssistantMessage, whose stopReason also has "pending" and "deferred" (docs/migration.md "Stop reasons"); the same source compiles against both in user-code.*.ts.
export type T_agent_AgentOptions = Assert<Exists<Agent.AgentOptions>>;
// AgentState: ours adds \`pendingApprovals\` (docs/approvals.md), and its tools may carry Standard Schema parameters (docs/tool-validation.md), so neither is assignable to the other; the same source compiles against both in user-code.*.ts.
export type T_agent_AgentState = Assert<Exists<Agent.AgentState>>;
export type T_agent_AgentTool = Assert<Assignable<RefAgent.AgentTool, Agent.AgentTool>>;
export type T_agent_AgentToolCall = Assert<Assignable<RefAgent.AgentToolCall, Agent.AgentToolCall>>;
export type T_agent_AgentToolResult = Assert<Assignable<RefAgent.AgentToolResult<unknown>, Agent.AgentToolResult<unknown>>>;
export type T_agent_AgentToolUpdateCallback = Assert<Assignable<RefAgent.AgentToolUpdateCallback, Agent.AgentToolUpdateCallback>>;
export type T_agent_BeforeToolCallContext = Assert<Assignable<RefAgent.BeforeToolCallContext, Agent.BeforeToolCallContext>>;
export type T_agent_BeforeToolCallResult = Assert<Assignable<RefAgent.BeforeToolCallResult, Agent.BeforeToolCallResult>>;
// CustomAgentMessages: an empty interface for declaration merging in both; the examples package merges its own entries into ours.
export type T_agent_CustomAgentMessages = Assert<Exists<Agent.CustomAgentMessages>>;
export type T_agent_ProxyAssistantMessageEvent = Assert<Assignable<RefAgent.ProxyAssistantMessageEvent, Agent.ProxyAssistantMessageEvent>>;
export type T_agent_ProxyStreamOptions = Assert<Assignable<RefAgent.ProxyStreamOptions, Agent.ProxyStreamOptions>>;
export type T_agent_ShouldStopAfterTurnContext = Assert<Assignable<RefAgent.ShouldStopAfterTurnContext, Agent.ShouldStopAfterTurnContext>>;
// StreamFn: callbacks receive our AssistantMessage, whose stopReason also has "pending" and "deferred" (docs/migration.md "Stop reasons"); the same source compiles against both in user-code.*.ts.
export type T_agent_StreamFn = Assert<Exists<Agent.StreamFn>>;
export type T_agent_ThinkingLevel = Assert<Assignable<RefAgent.ThinkingLevel, Agent.ThinkingLevel>>;
export type T_agent_ToolExecutionMode = Assert<Assignable<RefAgent.ToolExecutionMode, Agent.ToolExecutionMode>>;

// ---- What the issue named: a user's own stream class fits our StreamFn without a cast ----
/** Only what a consumer needs: no `lastPartial`, no `unterminated`, no private fields. */
type OwnStream = { [Symbol.asyncIterator](): AsyncIterator<Ai.AssistantMessageEvent>; result(): Promise<Ai.AssistantMessage> };
export type StreamFnTakesOwnStream = Assert<Assignable<(model: Ai.Model<any>, context: Ai.Context) => OwnStream, Agent.StreamFn>>;
export type StreamFnTakesOwnAsyncStream = Assert<Assignable<(model: Ai.Model<any>, context: Ai.Context) => Promise<OwnStream>, Agent.StreamFn>>;
// The reference's stream object (its class) fits as a StreamFn result too.
export type StreamFnTakesReferenceStream = Assert<Assignable<(model: Ai.Model<any>, context: Ai.Context) => RefAi.AssistantMessageEventStream, Agent.StreamFn>>;
