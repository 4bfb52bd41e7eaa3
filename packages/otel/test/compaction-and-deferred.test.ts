/**
 * The spans of a compaction (its summary call nested under it) and of a deferred reply redeemed
 * later (linked to the call that deferred it), over the scripted (faux) provider.
 */
import { type AssistantMessage, createAssistantMessageEventStream, fauxAssistantMessage, registerFauxProvider } from "@pi/ai";
import { Agent, SUMMARY_SYSTEM_PROMPT } from "@pi/agent-core";
import { afterEach, describe, expect, it } from "vitest";
import { traceAgent } from "../src/index.js";
import { otelSdk, parentOf, spanNamed } from "./otel-sdk.js";

let faux: ReturnType<typeof registerFauxProvider> | undefined;
afterEach(() => {
	faux?.unregister();
	faux = undefined;
});

const long = (label: string) => `${label}: ${"lorem ipsum dolor sit amet ".repeat(74)}`; // about 500 tokens

describe("traceAgent: compaction and deferred replies", () => {
	it("records a compaction as a span of its own, with the summary call under it", async () => {
		faux = registerFauxProvider({ models: [{ id: "small", contextWindow: 4_000, maxTokens: 1_000 }] });
		let summaries = 0;
		faux.setResponses(
			Array.from({ length: 12 }, () => (context: { systemPrompt?: string }) =>
				context.systemPrompt === SUMMARY_SYSTEM_PROMPT ? fauxAssistantMessage(`## Goal\nSummary ${++summaries}.`) : fauxAssistantMessage(long("answer")),
			),
		);
		const sdk = otelSdk();
		const agent = new Agent({ initialState: { model: faux.getModel() }, compaction: { enabled: true, reserveTokens: 1_000, keepRecentTokens: 1_200 } });
		traceAgent(agent, { tracer: sdk.tracer, meter: sdk.meter });
		for (let prompt = 0; prompt < 4; prompt++) await agent.prompt(long(`prompt ${prompt}`));
		expect(summaries).toBe(1);

		const spans = sdk.spans();
		const compaction = spanNamed(spans, "compaction");
		expect(compaction.attributes).toMatchObject({ "pi.compaction.reason": "threshold" });
		expect(Number(compaction.attributes["pi.compaction.tokens_before"])).toBeGreaterThan(3_000);
		expect(Number(compaction.attributes["pi.compaction.tokens_after"])).toBeLessThan(Number(compaction.attributes["pi.compaction.tokens_before"]));
		const runs = spans.filter((span) => span.name === "invoke_agent");
		expect(runs).toHaveLength(4);
		expect(runs.map((span) => span.spanContext().spanId)).toContain(parentOf(compaction));
		// The summary call is the one chat span whose parent is the compaction.
		const chats = spans.filter((span) => span.name === "chat small");
		expect(chats).toHaveLength(5);
		expect(chats.filter((span) => parentOf(span) === compaction.spanContext().spanId)).toHaveLength(1);
	});

	it("links the span of a redeemed deferred reply to the call that deferred it", async () => {
		faux = registerFauxProvider();
		const placeholder: AssistantMessage = {
			...fauxAssistantMessage("", { stopReason: "deferred" }),
			content: [],
			deferred: { provider: "faux", api: "faux", modelId: "faux-1", id: "job-17" },
		};
		faux.setResponses([placeholder]);
		const sdk = otelSdk();
		const agent = new Agent({ initialState: { model: faux.getModel() } });
		const redeemed: string[] = [];
		agent.streamDeferred = (model, handle) => {
			redeemed.push(handle.id);
			const stream = createAssistantMessageEventStream();
			const message = { ...fauxAssistantMessage("the batch is done"), model: model.id };
			stream.push({ type: "start", partial: { ...message, content: [], stopReason: "pending" } });
			stream.push({ type: "done", reason: "stop", message });
			return stream;
		};
		traceAgent(agent, { tracer: sdk.tracer, meter: sdk.meter });
		await agent.prompt("summarise the logs, in a batch");
		expect(agent.state.messages.at(-1)?.role === "assistant" && (agent.state.messages.at(-1) as AssistantMessage).stopReason).toBe("deferred");
		await agent.continue();
		expect(redeemed).toEqual(["job-17"]);

		const [deferring, redeeming] = sdk.spans().filter((span) => span.name === "chat faux-1") as [any, any];
		expect(deferring.attributes).toMatchObject({ "pi.stop_reason": "deferred", "pi.deferred.id": "job-17" });
		expect(redeeming.attributes).toMatchObject({ "pi.stop_reason": "stop", "pi.deferred.id": "job-17", "gen_ai.operation.name": "chat" });
		expect(redeeming.links.map((link: { context: { spanId: string } }) => link.context.spanId)).toEqual([deferring.spanContext().spanId]);
		// Each in its own run.
		expect(parentOf(deferring)).not.toBe(parentOf(redeeming));
	});
});
