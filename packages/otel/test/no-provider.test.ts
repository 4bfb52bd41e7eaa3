/**
 * With no tracer or meter provider registered (the API's defaults), tracing records nothing and
 * stays out of the way: the stream a call returns is the wrapped function's own object, and the
 * tools run as they would.
 */
import { type AssistantMessageEventSource, type Context, fauxAssistantMessage, type Model, type SimpleStreamOptions, fauxToolCall, registerFauxProvider, streamSimple, Type } from "@pi/ai";
import { Agent, defineTool } from "@pi/agent-core";
import { trace } from "@opentelemetry/api";
import { afterEach, describe, expect, it } from "vitest";
import { traceAgent, traceStreamFn } from "../src/index.js";

let faux: ReturnType<typeof registerFauxProvider> | undefined;
afterEach(() => {
	faux?.unregister();
	faux = undefined;
});

describe("with no provider registered", () => {
	it("an agent runs as without traceAgent, and every span it starts is a no-op", async () => {
		faux = registerFauxProvider();
		faux.setResponses([fauxAssistantMessage([fauxToolCall("echo", { text: "hi" })]), fauxAssistantMessage("done")]);
		const echo = defineTool({
			name: "echo",
			label: "Echo",
			description: "Echoes",
			parameters: Type.Object({ text: Type.String() }),
			execute: async (_id, { text }) => ({ content: [{ type: "text", text }], details: { active: trace.getActiveSpan()?.isRecording() ?? false } }),
		});
		const agent = new Agent({ initialState: { model: faux.getModel(), tools: [echo] } });
		const returned: AssistantMessageEventSource[] = [];
		const inner = agent.streamFn;
		agent.streamFn = (...args) => {
			const stream = inner(...args) as AssistantMessageEventSource;
			returned.push(stream);
			return stream;
		};
		const wrapped = agent.streamFn;
		const seen: AssistantMessageEventSource[] = [];
		traceAgent(agent);
		const traced = agent.streamFn;
		agent.streamFn = (...args) => {
			const stream = traced(...args) as AssistantMessageEventSource;
			seen.push(stream);
			return stream;
		};
		expect(traced).not.toBe(wrapped);
		await agent.prompt("echo hi");
		expect(agent.state.messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(agent.state.messages[2]).toMatchObject({ role: "toolResult", isError: false, details: { active: false } });
		// The traced function handed back the very stream objects of the function it wraps.
		expect(seen).toHaveLength(2);
		expect(seen).toEqual(returned);
		for (const [index, stream] of seen.entries()) expect(stream).toBe(returned[index]);
	});

	it("traceStreamFn returns the wrapped function's stream unchanged", async () => {
		faux = registerFauxProvider();
		faux.setResponses([fauxAssistantMessage("hello")]);
		let inner: AssistantMessageEventSource | undefined;
		const stream = traceStreamFn((model: Model<any>, context: Context, options?: SimpleStreamOptions) => {
			inner = streamSimple(model, context, options);
			return inner;
		});
		const outer = await stream(faux.getModel(), { messages: [{ role: "user", content: "hi", timestamp: 0 }] });
		expect(outer).toBe(inner);
		expect((await outer.result()).content).toEqual([{ type: "text", text: "hello" }]);
	});
});
