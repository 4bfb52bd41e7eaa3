/**
 * Spans of an agent run exported over OTLP/HTTP (JSON) by the real exporter, to a receiver on
 * 127.0.0.1 that this test starts: what a collector, Jaeger or Phoenix would receive.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { fauxAssistantMessage, registerFauxProvider } from "@pi/ai";
import { Agent } from "@pi/agent-core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { traceAgent } from "../src/index.js";

interface OtlpSpan {
	name: string;
	traceId: string;
	spanId: string;
	parentSpanId?: string;
	attributes: { key: string; value: Record<string, unknown> }[];
}

let receiver: Server;
let url: string;
const requests: { path: string; contentType: string; body: { resourceSpans: { scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[] } }[] = [];

async function readBody(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString("utf8");
}

beforeAll(async () => {
	receiver = createServer(async (request, response) => {
		requests.push({ path: request.url ?? "", contentType: String(request.headers["content-type"]), body: JSON.parse(await readBody(request)) });
		response.writeHead(200, { "content-type": "application/json" }).end("{}");
	});
	await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
	const address = receiver.address();
	if (address === null || typeof address === "string") throw new Error("no receiver address");
	url = `http://127.0.0.1:${address.port}/v1/traces`;
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));

describe("export over OTLP/HTTP", () => {
	it("sends the run's spans, with their GenAI attributes and parent links, as OTLP JSON", async () => {
		const faux = registerFauxProvider({ models: [{ id: "otlp-model" }] });
		faux.setResponses([fauxAssistantMessage("exported")]);
		const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url }))] });
		const agent = new Agent({ initialState: { model: faux.getModel() }, sessionId: "session-otlp" });
		const stop = traceAgent(agent, { tracer: provider.getTracer("otlp-test"), agentName: "exporter" });
		await agent.prompt("hi");
		stop();
		await provider.forceFlush();
		await provider.shutdown();
		faux.unregister();

		expect(requests.length).toBeGreaterThan(0);
		expect(requests.every((request) => request.path === "/v1/traces" && request.contentType.startsWith("application/json"))).toBe(true);
		const spans = requests.flatMap((request) => request.body.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans)));
		const byName = new Map(spans.map((span) => [span.name, span]));
		const run = byName.get("invoke_agent exporter");
		const chat = byName.get("chat otlp-model");
		expect(run && chat).toBeTruthy();
		expect(chat?.parentSpanId).toBe(run?.spanId);
		expect(chat?.traceId).toBe(run?.traceId);
		const attributes = (span: OtlpSpan | undefined) => Object.fromEntries((span?.attributes ?? []).map(({ key, value }) => [key, Object.values(value)[0]]));
		expect(attributes(run)).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "exporter", "gen_ai.conversation.id": "session-otlp" });
		expect(attributes(chat)).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.request.model": "otlp-model", "gen_ai.provider.name": "faux" });
	});
});
