/**
 * `pnpm --filter @pi/bench bench:telemetry`: what `traceAgent` (`@pi/otel`) costs an agent run,
 * on the built packages (`dist/`), in one process, warm (steady state; no forced collections).
 *
 * Three sides, in alternating rounds; in each round the same agent run (a tool call, its result,
 * the answer: two model calls and one tool call), over two backends: the scripted (faux) provider,
 * the cheapest run there is, where the overhead is as large a share as it can be; and real Chat
 * Completions captures served over HTTP by the local replay server (in this process), a run as an
 * app makes it, minus the network's wait. The sides:
 * - plain: no `traceAgent`;
 * - off: `traceAgent` with no tracer or meter provider registered (the API's no-ops);
 * - SDK: `traceAgent` with the OpenTelemetry SDK, a SimpleSpanProcessor into an in-memory
 *   exporter, and a MeterProvider (5 spans and 4 metric recordings per run).
 * Reported: CPU time per run, the ratio of each side to plain, and the SDK's overhead per model
 * call. Prints a markdown report and writes bench/TELEMETRY.md (`--quick`: fewer runs, nothing written).
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { fauxAssistantMessage, fauxToolCall, registerFauxProvider, Type } from "@pi/ai";
import { loadFixture, sseResponse, startReplayServer } from "@pi/ai/testing";
import { Agent, defineTool } from "@pi/agent-core";
import { traceAgent } from "@pi/otel";
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { machineInfo, machineLine } from "./lib/machine.js";
import { fmt, fmtRatio, summarize } from "./lib/stats.js";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 5 : 21;
const RUNS_PER_ROUND = quick ? 100 : 400;
const WARMUP_RUNS = quick ? 200 : 1000;
const CALLS_PER_RUN = 2;
const log = (/** @type {string} */ text) => process.stderr.write(`[bench:telemetry] ${text}\n`);

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const faux = registerFauxProvider({ tokenSize: { min: 8, max: 16 } });
const answer = "The answer, after looking it up, is forty-two. ".repeat(8);
const server = await startReplayServer();
const toolCalls = sseResponse(loadFixture("openai-completions", "tool-calls-parallel"));
const text = sseResponse(loadFixture("openai-completions", "text-basic"));
/** @type {import("@pi/ai").Model<"openai-completions">} */
const completions = {
	id: "gpt-4o",
	name: "GPT-4o",
	api: "openai-completions",
	provider: "openai",
	baseUrl: `${server.url}/v1`,
	reasoning: false,
	input: ["text"],
	cost: { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 0 },
	contextWindow: 128_000,
	maxTokens: 16_384,
};
const backends = {
	faux: {
		model: faux.getModel(),
		tool: "echo",
		script: () => faux.setResponses([fauxAssistantMessage([fauxToolCall("echo", { text: "forty-two" })]), fauxAssistantMessage(answer)]),
	},
	// The capture calls secret_retrieval_tool twice, in parallel.
	http: { model: completions, tool: "secret_retrieval_tool", script: () => server.enqueue(toolCalls, text) },
};
/** @param {string} name */
const toolNamed = (name) =>
	defineTool({
		name,
		label: name,
		description: "Echoes its arguments",
		parameters: Type.Object({}, { additionalProperties: true }),
		execute: async (_id, args) => ({ content: [{ type: "text", text: JSON.stringify(args) }], details: {} }),
	});

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
class DiscardingReader extends MetricReader {
	async onForceFlush() {}
	async onShutdown() {}
}
const meterProvider = new MeterProvider({ readers: [new DiscardingReader()] });
const sdk = { tracer: tracerProvider.getTracer("bench"), meter: meterProvider.getMeter("bench") };

/** @type {Record<string, (agent: Agent) => (() => void) | undefined>} */
const sides = {
	plain: () => undefined,
	off: (agent) => traceAgent(agent),
	sdk: (agent) => traceAgent(agent, sdk),
};

/** One agent run (a new Agent, as a server makes per request): tool call(s), tool(s), answer. */
async function oneRun(backend, side) {
	const { model, tool, script } = backends[backend];
	script();
	const agent = new Agent({ initialState: { model, tools: [toolNamed(tool)] }, getApiKey: () => "sk-bench" });
	const stop = sides[side](agent);
	await agent.prompt("What is the answer?");
	stop?.();
	const last = agent.state.messages.at(-1);
	if (last?.role !== "assistant" || last.stopReason !== "stop") throw new Error(`${backend}/${side}: the run ended early: ${agent.state.errorMessage}`);
}

/** CPU microseconds per run over `runs` runs. */
async function measure(backend, side, runs) {
	const start = process.cpuUsage();
	for (let index = 0; index < runs; index++) await oneRun(backend, side);
	const used = process.cpuUsage(start);
	exporter.reset();
	return (used.user + used.system) / runs;
}

const RUNS = { faux: RUNS_PER_ROUND, http: Math.round(RUNS_PER_ROUND / 4) };
const span = (/** @type {ReturnType<typeof summarize>} */ s) => `${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})`;
/** @type {string[]} */
const rows = [];
/** @type {string[]} */
const perCallLines = [];
for (const backend of Object.keys(backends)) {
	log(`${backend}: warming up (${WARMUP_RUNS} runs per side)`);
	for (const side of Object.keys(sides)) await measure(backend, side, backend === "http" ? WARMUP_RUNS / 4 : WARMUP_RUNS);
	/** @type {Record<string, number[]>} */
	const samples = { plain: [], off: [], sdk: [] };
	/** @type {Record<string, number[]>} per-round ratios to plain, measured back to back */
	const ratios = { off: [], sdk: [] };
	for (let round = 0; round < ROUNDS; round++) {
		const order = round % 2 === 0 ? ["plain", "off", "sdk"] : ["sdk", "off", "plain"];
		/** @type {Record<string, number>} */
		const cpu = {};
		for (const side of order) cpu[side] = await measure(backend, side, RUNS[backend]);
		for (const side of order) samples[side].push(cpu[side]);
		ratios.off.push(cpu.off / cpu.plain);
		ratios.sdk.push(cpu.sdk / cpu.plain);
		log(`${backend} round ${round + 1}/${ROUNDS}: plain ${fmt(cpu.plain)} µs, off ${fmt(cpu.off)} µs, sdk ${fmt(cpu.sdk)} µs per run`);
	}
	const offRatio = summarize(ratios.off);
	const sdkRatio = summarize(ratios.sdk);
	const calls = 2;
	const perCall = summarize(samples.sdk.map((value, index) => (value - (samples.plain[index] ?? value)) / calls));
	rows.push(
		`| ${backend} | plain: no traceAgent | ${span(summarize(samples.plain))} | 1× |`,
		`| ${backend} | traceAgent, no provider registered | ${span(summarize(samples.off))} | ${fmtRatio(offRatio.median)} (${fmt(offRatio.min)}–${fmt(offRatio.max)}) |`,
		`| ${backend} | traceAgent, SDK + in-memory exporter + metrics | ${span(summarize(samples.sdk))} | ${fmtRatio(sdkRatio.median)} (${fmt(sdkRatio.min)}–${fmt(sdkRatio.max)}) |`,
	);
	perCallLines.push(`- ${backend}: ${span(perCall)} µs of CPU per model call`);
}
await tracerProvider.shutdown();
await meterProvider.shutdown();
await server.close();

const report = `# Telemetry benchmark (issue 29)

- Date: ${new Date().toISOString().slice(0, 10)}; machine: ${machineLine(machineInfo())}
- Command: \`pnpm --filter @pi/bench bench:telemetry\`${quick ? " --quick" : ""}. Regime: warm steady state in one process (warm-up runs per side first, no forced collections), ${ROUNDS} rounds per backend of ${RUNS.faux} (faux) or ${RUNS.http} (http) runs per side, the three sides back to back in alternating order; CPU time (user + system) of the process per run, median (min–max) over the rounds; the ratio is taken per round.
- One run: a new \`Agent\`, a tool-call reply, the tool calls, the answer: 2 model calls. faux: the scripted provider, 1 tool call. http: the recorded Chat Completions captures \`tool-calls-parallel\` and \`text-basic\` over HTTP from the replay server in the same process (its CPU counts on every side alike), 2 tool calls.

| backend | side | CPU per run (µs) | ratio to plain |
| --- | --- | --- | --- |
${rows.join("\n")}

With the SDK (a SimpleSpanProcessor into an in-memory exporter, and a meter provider), the overhead per model call (its \`chat\` span, its share of the run's tool and agent spans, and the two histograms):
${perCallLines.join("\n")}

With no provider registered, model calls pass straight through and the tools' wrappers find no span; what remains is the agent's call of one more event listener per event, and setting up and stopping the trace of each new agent.
`;
process.stdout.write(report);
if (!quick) writeFileSync(fileURLToPath(new URL("../TELEMETRY.md", import.meta.url)), report);
