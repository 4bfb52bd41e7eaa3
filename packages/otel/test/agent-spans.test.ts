/**
 * The spans and metrics of an agent run, recorded by the real OpenTelemetry SDK with in-memory
 * exporters: a run over real Chat Completions captures served by the local replay server, with a
 * 429 that is retried, two parallel tool calls of which one fails, and a final answer.
 */
import { type Model, Type } from "@pi/ai";
import { jsonResponse, loadFixture, type ReplayServer, sseResponse, startReplayServer } from "@pi/ai/testing";
import { Agent, defineTool } from "@pi/agent-core";
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { traceAgent } from "../src/index.js";
import { otelSdk, parentOf, spanNamed } from "./otel-sdk.js";

const API_KEY = "sk-test-otel-secret-0123456789";
let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function completionsModel(): Model<"openai-completions"> {
	return {
		id: "gpt-4o",
		name: "GPT-4o",
		api: "openai-completions",
		provider: "openai",
		baseUrl: `${server.url}/v1`,
		reasoning: false,
		input: ["text", "image"],
		cost: { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 0 },
		contextWindow: 128_000,
		maxTokens: 16_384,
	};
}

/** The tool of the capture: the first call succeeds, the second throws. */
function secretTool(ownSpans?: () => void) {
	let calls = 0;
	return defineTool({
		name: "secret_retrieval_tool",
		label: "Secret",
		description: "Retrieves a secret",
		parameters: Type.Object({ password: Type.String() }),
		execute: async () => {
			ownSpans?.();
			calls += 1;
			if (calls === 2) throw new Error("the vault is locked");
			return { content: [{ type: "text", text: "the secret is 42" }], details: {} };
		},
	});
}

/** One agent run: 429 (retried), two tool calls, then the answer. */
async function tracedRun(options: { captureContent?: boolean; ownSpans?: (sdk: ReturnType<typeof otelSdk>) => void } = {}) {
	const sdk = otelSdk();
	server.enqueue(
		jsonResponse(429, { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }, { "retry-after": "0" }),
		sseResponse(loadFixture("openai-completions", "tool-calls-parallel")),
		sseResponse(loadFixture("openai-completions", "text-basic")),
	);
	const agent = new Agent({
		initialState: { model: completionsModel(), systemPrompt: "Be brief.", tools: [secretTool(options.ownSpans && (() => options.ownSpans?.(sdk)))] },
		getApiKey: () => API_KEY,
		sessionId: "conversation-7",
	});
	const stop = traceAgent(agent, { tracer: sdk.tracer, meter: sdk.meter, agentName: "vault", captureContent: options.captureContent });
	await agent.prompt("What are the secrets?");
	stop();
	return { sdk, agent, spans: sdk.spans() };
}

describe("traceAgent: the span tree of a run", () => {
	it("is invoke_agent over two chat spans and two execute_tool spans, in the GenAI conventions", async () => {
		const { spans, sdk } = await tracedRun();
		expect(spans.map((span) => span.name).sort()).toEqual(["chat gpt-4o", "chat gpt-4o", "execute_tool secret_retrieval_tool", "execute_tool secret_retrieval_tool", "invoke_agent vault"]);
		const run = spanNamed(spans, "invoke_agent vault");
		expect(parentOf(run)).toBeUndefined();
		for (const span of spans) {
			if (span !== run) {
				expect(parentOf(span)).toBe(run.spanContext().spanId);
				expect(span.spanContext().traceId).toBe(run.spanContext().traceId);
			}
		}
		expect(run.attributes).toMatchObject({
			"gen_ai.operation.name": "invoke_agent",
			"gen_ai.agent.name": "vault",
			"gen_ai.conversation.id": "conversation-7",
			"gen_ai.provider.name": "openai",
			"gen_ai.request.model": "gpt-4o",
			"gen_ai.usage.input_tokens": 75 + 78,
			"gen_ai.usage.output_tokens": 53 + 9,
		});
		expect(run.status.code).toBe(SpanStatusCode.UNSET);

		const [first, second] = spans.filter((span) => span.name === "chat gpt-4o").sort((a, b) => hrMs(a.startTime) - hrMs(b.startTime)) as [ReadableSpan, ReadableSpan];
		expect(first.kind).toBe(SpanKind.CLIENT);
		expect(first.attributes).toMatchObject({
			"gen_ai.operation.name": "chat",
			"gen_ai.provider.name": "openai",
			"gen_ai.request.model": "gpt-4o",
			"gen_ai.response.model": "gpt-4o-2024-08-06",
			"gen_ai.response.id": "chatcmpl-CoDWpGC47t2wtJ7PYJq9LCn0IZunc",
			"gen_ai.response.finish_reasons": ["tool_call"],
			"gen_ai.usage.input_tokens": 75,
			"gen_ai.usage.output_tokens": 53,
			"gen_ai.usage.cache_read.input_tokens": 0,
			"gen_ai.usage.cache_creation.input_tokens": 0,
			"server.address": "127.0.0.1",
			"server.port": Number(new URL(server.url).port),
			"pi.stop_reason": "toolUse",
		});
		expect(first.attributes["pi.usage.cost.total"]).toBeCloseTo((75 * 2.5 + 53 * 10) / 1e6, 12);
		expect(second.attributes).toMatchObject({ "gen_ai.response.finish_reasons": ["stop"], "gen_ai.usage.input_tokens": 78, "gen_ai.usage.output_tokens": 9 });
		// The 429 was retried inside the first call: an event on its span, none on the second.
		expect(first.events.map((event) => event.name)).toEqual(["pi.retry"]);
		expect(first.events[0]?.attributes).toMatchObject({ "pi.retry.attempt": 1, "http.response.status_code": 429 });
		expect(String(first.events[0]?.attributes?.["pi.retry.reason"])).toContain("Rate limit reached");
		expect(second.events).toEqual([]);

		const tools = spans.filter((span) => span.name === "execute_tool secret_retrieval_tool");
		expect(tools.map((span) => span.attributes["gen_ai.tool.call.id"]).sort()).toEqual(["call_KPXe5NX7IcKkaBUhc6dto2QV", "call_M26z19sncd7b4LBgzKRRbaUE"]);
		for (const span of tools) expect(span.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "secret_retrieval_tool", "gen_ai.tool.type": "function" });
		const failed = tools.filter((span) => span.status.code === SpanStatusCode.ERROR);
		expect(failed).toHaveLength(1);
		expect(failed[0]?.attributes["error.type"]).toBe("tool_error");
		// The tools ran between the two model calls.
		for (const span of tools) {
			expect(hrMs(span.startTime)).toBeGreaterThanOrEqual(hrMs(first.endTime));
			expect(hrMs(span.endTime)).toBeLessThanOrEqual(hrMs(second.startTime));
		}
		await sdk.shutdown();
	});

	it("records no content unless captureContent is on, and never the API key", async () => {
		const { spans } = await tracedRun();
		const contentKeys = ["gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result"];
		for (const span of spans) for (const key of contentKeys) expect(span.attributes[key]).toBeUndefined();
		expect(JSON.stringify(spans.map(exported))).not.toContain(API_KEY);
	});

	it("with captureContent, records messages, system instructions, tool arguments and results in the conventions' form", async () => {
		const { spans } = await tracedRun({ captureContent: true });
		const chats = spans.filter((span) => span.name === "chat gpt-4o").sort((a, b) => hrMs(a.startTime) - hrMs(b.startTime));
		const input = JSON.parse(String(chats[0]?.attributes["gen_ai.input.messages"]));
		expect(input).toEqual([{ role: "user", parts: [{ type: "text", content: "What are the secrets?" }] }]);
		expect(JSON.parse(String(chats[0]?.attributes["gen_ai.system_instructions"]))).toEqual([{ type: "text", content: "Be brief." }]);
		const output = JSON.parse(String(chats[0]?.attributes["gen_ai.output.messages"]));
		expect(output[0].role).toBe("assistant");
		expect(output[0].finish_reason).toBe("tool_call");
		expect(output[0].parts.map((part: { type: string }) => part.type)).toEqual(["tool_call", "tool_call"]);
		expect(output[0].parts[0]).toMatchObject({ type: "tool_call", id: "call_M26z19sncd7b4LBgzKRRbaUE", name: "secret_retrieval_tool" });
		// The second call is sent the tool results.
		const secondInput = JSON.parse(String(chats[1]?.attributes["gen_ai.input.messages"]));
		expect(secondInput.map((message: { role: string }) => message.role)).toEqual(["user", "assistant", "tool", "tool"]);
		expect(secondInput[2].parts[0]).toMatchObject({ type: "tool_call_response", id: "call_M26z19sncd7b4LBgzKRRbaUE", result: "the secret is 42" });
		const finalOutput = JSON.parse(String(chats[1]?.attributes["gen_ai.output.messages"]));
		expect(finalOutput[0]).toMatchObject({ role: "assistant", finish_reason: "stop" });
		expect(finalOutput[0].parts[0].type).toBe("text");
		const tools = spans.filter((span) => span.name.startsWith("execute_tool"));
		for (const span of tools) expect(JSON.parse(String(span.attributes["gen_ai.tool.call.arguments"]))).toHaveProperty("password");
		expect(tools.map((span) => span.attributes["gen_ai.tool.call.result"]).sort()).toEqual(["the secret is 42", "the vault is locked"]);
		expect(JSON.stringify(spans.map(exported))).not.toContain(API_KEY);
	});

	it("runs each tool's execute inside its execute_tool span, so the tool's own spans nest under it", async () => {
		const { spans } = await tracedRun({
			ownSpans: (sdk) => {
				// What an instrumented HTTP client or database driver does inside the tool.
				sdk.tracer.startSpan("SELECT secrets", {}, context.active()).end();
			},
		});
		const own = spans.filter((span) => span.name === "SELECT secrets");
		expect(own).toHaveLength(2);
		const toolSpanIds = spans.filter((span) => span.name.startsWith("execute_tool")).map((span) => span.spanContext().spanId);
		expect(own.map(parentOf).sort()).toEqual([...toolSpanIds].sort());
	});

	it("records gen_ai.client.token.usage and gen_ai.client.operation.duration per model call", async () => {
		const { sdk } = await tracedRun();
		const resourceMetrics = await sdk.metrics();
		const all = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
		const usage = all.find((metric) => metric.descriptor.name === "gen_ai.client.token.usage");
		const duration = all.find((metric) => metric.descriptor.name === "gen_ai.client.operation.duration");
		expect(usage?.descriptor.unit).toBe("{token}");
		expect(duration?.descriptor.unit).toBe("s");
		const points = (usage?.dataPoints ?? []) as { attributes: Record<string, unknown>; value: { sum: number; count: number } }[];
		// One data point per attribute set: per token type and per answering model.
		const total = (type: string) =>
			points.filter((point) => point.attributes["gen_ai.token.type"] === type).reduce((sum, point) => ({ sum: sum.sum + point.value.sum, count: sum.count + point.value.count }), { sum: 0, count: 0 });
		expect(total("input")).toEqual({ sum: 75 + 78, count: 2 });
		expect(total("output")).toEqual({ sum: 53 + 9, count: 2 });
		expect(points[0]?.attributes).toMatchObject({
			"gen_ai.operation.name": "chat",
			"gen_ai.provider.name": "openai",
			"gen_ai.request.model": "gpt-4o",
			"gen_ai.response.model": "gpt-4o-2024-08-06",
			"server.address": "127.0.0.1",
		});
		const durationPoints = (duration?.dataPoints ?? []) as { value: { count: number } }[];
		expect(durationPoints.reduce((total, point) => total + point.value.count, 0)).toBe(2);
		await sdk.shutdown();
	});
});

describe("traceAgent: failures", () => {
	it("marks a failed model call and its run with error.type and an error status", async () => {
		const sdk = otelSdk();
		server.enqueue(jsonResponse(400, { error: { message: "Invalid 'messages': empty", type: "invalid_request_error" } }));
		const agent = new Agent({ initialState: { model: completionsModel() }, getApiKey: () => API_KEY });
		const stop = traceAgent(agent, { tracer: sdk.tracer, meter: sdk.meter });
		await agent.prompt("hi");
		stop();
		const spans = sdk.spans();
		const chat = spanNamed(spans, "chat gpt-4o");
		expect(chat.status.code).toBe(SpanStatusCode.ERROR);
		expect(chat.status.message).toContain("Invalid 'messages'");
		expect(chat.attributes).toMatchObject({ "error.type": "_OTHER", "gen_ai.response.finish_reasons": ["error"] });
		const run = spanNamed(spans, "invoke_agent");
		expect(run.status.code).toBe(SpanStatusCode.ERROR);
		expect(run.attributes["error.type"]).toBe("_OTHER");
		expect(JSON.stringify(spans.map(exported))).not.toContain(API_KEY);
		const all = (await sdk.metrics()).scopeMetrics.flatMap((scope) => scope.metrics);
		const duration = all.find((metric) => metric.descriptor.name === "gen_ai.client.operation.duration");
		expect(duration?.dataPoints[0]?.attributes["error.type"]).toBe("_OTHER");
	});

	it("says that an aborted run was aborted", async () => {
		const sdk = otelSdk();
		const fixture = loadFixture("openai-completions", "text-basic");
		server.enqueue({ ...sseResponse(fixture), stallAfterBytes: Math.floor(fixture.length / 2) });
		const agent = new Agent({ initialState: { model: completionsModel() }, getApiKey: () => API_KEY });
		const stop = traceAgent(agent, { tracer: sdk.tracer, meter: sdk.meter });
		agent.subscribe((event) => {
			if (event.type === "message_update") agent.abort();
		});
		await agent.prompt("hi");
		stop();
		const spans = sdk.spans();
		expect(spanNamed(spans, "chat gpt-4o").attributes).toMatchObject({ "pi.aborted": true, "pi.stop_reason": "aborted" });
		const run = spanNamed(spans, "invoke_agent");
		expect(run.attributes["pi.aborted"]).toBe(true);
		expect(run.status.code).toBe(SpanStatusCode.UNSET);
	});
});

describe("traceAgent: what it wraps", () => {
	it("restores the stream function and the tools when stopped, and traces nothing after", async () => {
		const sdk = otelSdk();
		const tool = secretTool();
		const agent = new Agent({ initialState: { model: completionsModel(), tools: [tool] }, getApiKey: () => API_KEY });
		const streamFn = agent.streamFn;
		const stop = traceAgent(agent, { tracer: sdk.tracer, meter: sdk.meter });
		expect(agent.streamFn).not.toBe(streamFn);
		expect(agent.state.tools[0]).not.toBe(tool);
		expect(agent.state.tools[0]).toMatchObject({ name: tool.name, label: tool.label, description: tool.description, parameters: tool.parameters });
		stop();
		stop();
		expect(agent.streamFn).toBe(streamFn);
		expect(agent.state.tools[0]).toBe(tool);
		server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
		await agent.prompt("hi");
		expect(sdk.spans()).toEqual([]);
	});

	it("nests the run under the span active where prompt() is called", async () => {
		const sdk = otelSdk();
		server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
		const agent = new Agent({ initialState: { model: completionsModel() }, getApiKey: () => API_KEY });
		traceAgent(agent, { tracer: sdk.tracer, meter: sdk.meter });
		const request = sdk.tracer.startSpan("POST /chat");
		await context.with(trace.setSpan(context.active(), request), () => agent.prompt("hi"));
		request.end();
		expect(parentOf(spanNamed(sdk.spans(), "invoke_agent"))).toBe(request.spanContext().spanId);
	});
});

/** What an exporter would see of a span. */
function exported(span: ReadableSpan) {
	return { name: span.name, attributes: span.attributes, events: span.events, status: span.status, links: span.links };
}

function hrMs([seconds, nanos]: [number, number]): number {
	return seconds * 1000 + nanos / 1e6;
}
