import { type AssistantMessage, streamDeferred } from "@pi/ai";
import type { Agent, AgentEvent, AgentMessage, AgentTool } from "@pi/agent-core";
import { type Context, context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { GEN_AI, PI } from "./attributes.js";
import { toolResultText } from "./content.js";
import { deferralLinks, rememberDeferral } from "./deferred-links.js";
import { providerName } from "./provider-name.js";
import { resolveTelemetry, type Telemetry, type TelemetryOptions } from "./telemetry.js";
import { traceModelCall } from "./trace-model-call.js";

/** Options of {@link traceAgent}. */
export interface TraceAgentOptions extends TelemetryOptions {
	/** `gen_ai.agent.name`, and the run span's name `invoke_agent {agentName}`. Default: none. */
	agentName?: string;
}

/** What one run of the agent has open. */
interface RunTrace {
	telemetry: Telemetry;
	span: Span;
	/** Nothing records (no tracer, no meter provider): model calls pass straight through. */
	inert: boolean;
	context: Context;
	/** The open compaction, whose summary call is its child. */
	compaction?: { span: Span; context: Context };
	tools: Map<string, { span: Span; context: Context }>;
	usage: { input: number; output: number; cost: number };
}

const ORIGINAL = Symbol("pi.otel.original");
type TracedTool = AgentTool<any> & { [ORIGINAL]?: AgentTool<any> };

/**
 * Traces an agent: each run is an `invoke_agent` span; inside it each model call is a
 * `chat {model}` span (kind CLIENT) with usage, cost and retries, each tool call an
 * `execute_tool {name}` span whose context the tool's `execute` runs in (so spans the tool makes
 * nest under it), each compaction a `compaction` span, and a deferred reply redeemed later a
 * `chat` span linked to the call that deferred it. Attributes follow the GenAI semantic
 * conventions; `gen_ai.conversation.id` is the agent's session id. The metrics
 * `gen_ai.client.token.usage` and `gen_ai.client.operation.duration` are recorded per call.
 *
 * It wraps `agent.streamFn`, `agent.streamDeferred` and each tool's `execute` in `agent.state.tools`
 * (a tool assigned later is wrapped when the next run starts), and subscribes to the agent's
 * events. With no tracer or meter provider registered, nothing is recorded and each call costs a
 * few property reads. Returns a function that stops tracing and restores what it wrapped.
 *
 * @example
 * ```ts
 * const stop = traceAgent(agent, { agentName: "support" });
 * await agent.prompt("…");
 * stop();
 * ```
 */
export function traceAgent(agent: Agent, options: TraceAgentOptions = {}): () => void {
	let run: RunTrace | undefined;
	const originalStreamFn = agent.streamFn;
	const originalStreamDeferred = agent.streamDeferred;

	agent.streamFn = (model, llmContext, streamOptions) => {
		const current = run;
		if (!current || current.inert) return originalStreamFn(model, llmContext, streamOptions);
		return traceModelCall(
			current.telemetry,
			{
				model,
				context: llmContext,
				maxTokens: streamOptions?.maxTokens,
				temperature: streamOptions?.temperature,
				parent: current.compaction?.context ?? current.context,
				onEnd: rememberDeferral,
			},
			(onRetry) => originalStreamFn(model, llmContext, { ...streamOptions, onRetry }),
			streamOptions?.onRetry,
		);
	};
	agent.streamDeferred = (model, handle, fetchOptions) => {
		const redeem = originalStreamDeferred ?? streamDeferred;
		const current = run;
		if (!current || current.inert) return redeem(model, handle, fetchOptions);
		return traceModelCall(
			current.telemetry,
			{ model, parent: current.context, links: deferralLinks(handle.id), deferredId: handle.id, onEnd: rememberDeferral },
			(onRetry) => redeem(model, handle, { ...fetchOptions, onRetry }),
			fetchOptions?.onRetry,
		);
	};

	const wrapTools = () => {
		const tools = agent.state.tools;
		for (let index = 0; index < tools.length; index++) {
			const tool = tools[index] as TracedTool;
			if (!tool[ORIGINAL]) tools[index] = tracedTool(tool, () => run);
		}
	};
	wrapTools();

	const unsubscribe = agent.subscribe((event, signal) => {
		if (event.type === "agent_start") {
			wrapTools();
			run = startRun(agent, options);
		} else if (run) {
			onRunEvent(run, event, signal);
			if (event.type === "agent_end") run = undefined;
		}
	});

	let stopped = false;
	return () => {
		if (stopped) return;
		stopped = true;
		unsubscribe();
		agent.streamFn = originalStreamFn;
		agent.streamDeferred = originalStreamDeferred;
		const tools = agent.state.tools;
		for (let index = 0; index < tools.length; index++) {
			const original = (tools[index] as TracedTool)[ORIGINAL];
			if (original) tools[index] = original;
		}
		if (run) endRun(run, undefined, undefined);
		run = undefined;
	};
}

/** A copy of `tool` whose `execute` runs inside the `execute_tool` span of its call, when there is one. */
function tracedTool(tool: AgentTool<any>, currentRun: () => RunTrace | undefined): TracedTool {
	return {
		...tool,
		[ORIGINAL]: tool,
		execute: (toolCallId, ...rest) => {
			const open = currentRun()?.tools.get(toolCallId);
			return open ? context.with(open.context, () => tool.execute(toolCallId, ...rest)) : tool.execute(toolCallId, ...rest);
		},
	};
}

function startRun(agent: Agent, options: TraceAgentOptions): RunTrace {
	const telemetry = resolveTelemetry(options);
	const model = agent.state.model;
	const name = options.agentName ? `invoke_agent ${options.agentName}` : "invoke_agent";
	const span = telemetry.tracer.startSpan(name, {
		kind: SpanKind.INTERNAL,
		attributes: {
			[GEN_AI.operationName]: "invoke_agent",
			[GEN_AI.agentName]: options.agentName,
			[GEN_AI.conversationId]: agent.sessionId,
			// An agent without a model (a custom stream function picks one) has an empty id.
			[GEN_AI.providerName]: model.id ? providerName(model.provider) : undefined,
			[GEN_AI.requestModel]: model.id || undefined,
		},
	});
	return {
		telemetry,
		span,
		inert: !span.isRecording() && !telemetry.metering,
		context: trace.setSpan(context.active(), span),
		tools: new Map(),
		usage: { input: 0, output: 0, cost: 0 },
	};
}

function onRunEvent(run: RunTrace, event: AgentEvent, signal: AbortSignal | undefined): void {
	if (!run.span.isRecording()) {
		if (event.type === "agent_end") run.span.end();
		return;
	}
	switch (event.type) {
		case "message_end": {
			const message = event.message as AgentMessage;
			if (isAssistant(message)) {
				run.usage.input += message.usage.input + message.usage.cacheRead + message.usage.cacheWrite;
				run.usage.output += message.usage.output;
				run.usage.cost += message.usage.cost.total;
			}
			break;
		}
		case "tool_execution_start": {
			const { tracer, captureContent } = run.telemetry;
			const span = tracer.startSpan(
				`execute_tool ${event.toolName}`,
				{
					kind: SpanKind.INTERNAL,
					attributes: {
						[GEN_AI.operationName]: "execute_tool",
						[GEN_AI.toolName]: event.toolName,
						[GEN_AI.toolCallId]: event.toolCallId,
						[GEN_AI.toolType]: "function",
						[GEN_AI.toolCallArguments]: captureContent ? JSON.stringify(event.args ?? null) : undefined,
					},
				},
				run.context,
			);
			run.tools.set(event.toolCallId, { span, context: trace.setSpan(run.context, span) });
			break;
		}
		case "tool_execution_end": {
			const open = run.tools.get(event.toolCallId);
			if (!open) break;
			run.tools.delete(event.toolCallId);
			if (run.telemetry.captureContent) open.span.setAttribute(GEN_AI.toolCallResult, toolResultText(event.result));
			if (signal?.aborted) open.span.setAttribute(PI.aborted, true);
			else if (event.isError) {
				open.span.setAttribute(GEN_AI.errorType, "tool_error");
				open.span.setStatus({ code: SpanStatusCode.ERROR, message: `tool ${event.toolName} returned an error result` });
			}
			open.span.end();
			break;
		}
		case "compaction_start": {
			const span = run.telemetry.tracer.startSpan(
				"compaction",
				{ kind: SpanKind.INTERNAL, attributes: { [PI.compactionReason]: event.reason, [PI.compactionTokensBefore]: event.tokensBefore } },
				run.context,
			);
			run.compaction = { span, context: trace.setSpan(run.context, span) };
			break;
		}
		case "compaction_end": {
			const open = run.compaction;
			if (!open) break;
			run.compaction = undefined;
			open.span.setAttribute(PI.compactionTokensAfter, event.tokensAfter ?? event.tokensBefore);
			if (event.aborted) open.span.setAttribute(PI.aborted, true);
			if (event.errorMessage) {
				open.span.setAttribute(GEN_AI.errorType, "_OTHER");
				open.span.setStatus({ code: SpanStatusCode.ERROR, message: event.errorMessage });
			}
			open.span.end();
			break;
		}
		case "agent_end":
			endRun(run, lastAssistant(event.messages), signal);
			break;
	}
}

/** Ends the run's span, and any tool or compaction span a failure left open. */
function endRun(run: RunTrace, last: AssistantMessage | undefined, signal: AbortSignal | undefined): void {
	for (const open of run.tools.values()) open.span.end();
	run.compaction?.span.end();
	const { span } = run;
	if (span.isRecording()) {
		span.setAttributes({ [GEN_AI.usageInputTokens]: run.usage.input, [GEN_AI.usageOutputTokens]: run.usage.output, [PI.costTotal]: run.usage.cost });
		if (last?.stopReason === "aborted" || signal?.aborted) span.setAttribute(PI.aborted, true);
		else if (last?.stopReason === "error") {
			span.setAttribute(GEN_AI.errorType, "_OTHER");
			span.setStatus({ code: SpanStatusCode.ERROR, message: last.errorMessage });
		}
	}
	span.end();
}

function isAssistant(message: AgentMessage): message is AssistantMessage {
	return (message as { role?: string }).role === "assistant";
}

function lastAssistant(messages: AgentMessage[]): AssistantMessage | undefined {
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index] as AgentMessage;
		if (isAssistant(message)) return message;
	}
	return undefined;
}
