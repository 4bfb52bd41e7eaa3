/** `traceStreamFn`: model calls of an app that uses `@pi/ai` without the agent. */
import { fauxAssistantMessage, registerFauxProvider } from "@pi/ai";
import { context, SpanKind, trace } from "@opentelemetry/api";
import { afterEach, describe, expect, it } from "vitest";
import { type TraceableStreamFn, traceStreamFn } from "../src/index.js";
import { otelSdk, parentOf, spanNamed } from "./otel-sdk.js";

let faux: ReturnType<typeof registerFauxProvider> | undefined;
afterEach(() => {
	faux?.unregister();
	faux = undefined;
});

describe("traceStreamFn", () => {
	it("makes each call a chat span, child of the span active where it is called, with usage and cost", async () => {
		faux = registerFauxProvider({ models: [{ id: "faux-priced", cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } }] });
		faux.setResponses([fauxAssistantMessage("hello there", { responseId: "resp_1" })]);
		const sdk = otelSdk();
		const stream = traceStreamFn(undefined, { tracer: sdk.tracer, meter: sdk.meter, captureContent: true });
		const parent = sdk.tracer.startSpan("job");
		const reply = await context.with(trace.setSpan(context.active(), parent), () =>
			stream(faux!.getModel(), { systemPrompt: "Be kind.", messages: [{ role: "user", content: "hi", timestamp: 0 }] }, { maxTokens: 100, temperature: 0.2 }).result(),
		);
		parent.end();
		// The span ends as the result settles, a few microtasks after the caller's own await.
		await new Promise((resolve) => setImmediate(resolve));
		const chat = spanNamed(sdk.spans(), "chat faux-priced");
		expect(chat.kind).toBe(SpanKind.CLIENT);
		expect(parentOf(chat)).toBe(parent.spanContext().spanId);
		expect(chat.attributes).toMatchObject({
			"gen_ai.operation.name": "chat",
			"gen_ai.provider.name": "faux",
			"gen_ai.request.model": "faux-priced",
			"gen_ai.request.max_tokens": 100,
			"gen_ai.request.temperature": 0.2,
			"gen_ai.response.id": "resp_1",
			"gen_ai.response.finish_reasons": ["stop"],
			"gen_ai.usage.input_tokens": reply.usage.input,
			"gen_ai.usage.output_tokens": reply.usage.output,
			"pi.usage.cost.total": reply.usage.cost.total,
		});
		expect(reply.usage.cost.total).toBeGreaterThan(0);
		expect(JSON.parse(String(chat.attributes["gen_ai.output.messages"]))).toEqual([{ role: "assistant", parts: [{ type: "text", content: "hello there" }], finish_reason: "stop" }]);
	});

	it("ends the span with an error when the wrapped function breaks its contract and throws", async () => {
		const sdk = otelSdk();
		faux = registerFauxProvider();
		const throwing: TraceableStreamFn = () => {
			throw new TypeError("not a stream");
		};
		const stream = traceStreamFn(
			throwing,
			{ tracer: sdk.tracer, meter: sdk.meter },
		);
		expect(() => stream(faux!.getModel(), { messages: [] })).toThrow("not a stream");
		const chat = spanNamed(sdk.spans(), "chat faux-1");
		expect(chat.attributes["error.type"]).toBe("TypeError");
		expect(chat.status).toMatchObject({ code: 2, message: "not a stream" });
	});
});
