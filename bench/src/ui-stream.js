/**
 * `pnpm --filter @pi/bench bench:ui-stream`: what `@pi/ui-stream` costs per streamed megabyte, on
 * the built packages (`dist/`), in one process, warm.
 *
 * One reply of about 256 KB of text, streamed in deltas of 4 to 8 characters (token-sized), three ways,
 * in alternating rounds:
 * - plain: our agent run on the scripted (faux) provider, a listener that takes every event, no adapter;
 * - adapter: the same run through `createAgentUIStreamResponse`, its SSE body read to the end
 *   (JSON per chunk, the encoder, the web streams: what a server sends);
 * - AI SDK: `ai`'s `streamText(…).toUIMessageStreamResponse()` over its `MockLanguageModelV4`
 *   streaming the same deltas, its body read to the end: the AI SDK's own path to the same bytes.
 * Reported: CPU milliseconds per MB of reply text, and the ratios. Prints a markdown report and
 * writes bench/UI-STREAM.md (`--quick`: fewer runs, nothing written).
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Agent } from "@pi/agent-core";
import { fauxAssistantMessage, registerFauxProvider } from "@pi/ai";
import { createAgentUIStreamResponse } from "@pi/ui-stream";
import { streamText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { machineInfo, machineLine } from "./lib/machine.js";
import { fmt, fmtRatio, summarize } from "./lib/stats.js";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 3 : 7;
const RUNS_PER_ROUND = quick ? 3 : 6;
const WARMUP_RUNS = quick ? 2 : 4;
// The AI SDK's path is an order of magnitude slower: fewer runs of it per round keep the bench short.
const RUNS = { plain: RUNS_PER_ROUND, adapter: RUNS_PER_ROUND, aiSdk: quick ? 1 : 2 };
const log = (/** @type {string} */ text) => process.stderr.write(`[bench:ui-stream] ${text}\n`);

const REPLY = "The quick brown fox jumps over the lazy dog, again and again. ".repeat(4096); // ~256 KB
const MB = new TextEncoder().encode(REPLY).length / 1e6;
const faux = registerFauxProvider({ tokenSize: { min: 4, max: 8 }, seed: 3 });
const uiMessages = [{ id: "u1", role: "user", parts: [{ type: "text", text: "Talk." }] }];

/** The same deltas the faux provider makes, for the AI SDK's mock model (seeded alike, cut alike). */
function deltas() {
	const out = [];
	let seed = 3;
	const random = () => {
		seed = (seed * 1103515245 + 12345) & 0x7fffffff;
		return seed / 0x7fffffff;
	};
	for (let index = 0; index < REPLY.length; ) {
		const size = 4 + Math.floor(random() * 5);
		out.push(REPLY.slice(index, index + size));
		index += size;
	}
	return out;
}
const aiDeltas = deltas();

/** @param {Response} response */
async function drain(response) {
	const reader = response.body.getReader();
	let bytes = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) return bytes;
		bytes += value.byteLength;
	}
}

const sides = {
	async plain() {
		faux.setResponses([fauxAssistantMessage(REPLY)]);
		const agent = new Agent({ initialState: { model: faux.getModel() } });
		let events = 0;
		agent.subscribe(() => {
			events++;
		});
		await agent.prompt("Talk.");
		if (agent.state.messages.at(-1)?.stopReason !== "stop") throw new Error(`plain: ${agent.state.errorMessage}`);
	},
	async adapter() {
		faux.setResponses([fauxAssistantMessage(REPLY)]);
		const agent = new Agent({ initialState: { model: faux.getModel() } });
		const bytes = await drain(await createAgentUIStreamResponse({ agent, uiMessages }));
		if (bytes < REPLY.length) throw new Error("adapter: short body");
	},
	async aiSdk() {
		const model = new MockLanguageModelV4({
			doStream: async () => ({
				stream: new ReadableStream({
					start(controller) {
						controller.enqueue({ type: "stream-start", warnings: [] });
						controller.enqueue({ type: "text-start", id: "t" });
						for (const delta of aiDeltas) controller.enqueue({ type: "text-delta", id: "t", delta });
						controller.enqueue({ type: "text-end", id: "t" });
						controller.enqueue({
							type: "finish",
							finishReason: { unified: "stop", raw: "stop" },
							usage: { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 60_000, text: 60_000, reasoning: 0 } },
						});
						controller.close();
					},
				}),
			}),
		});
		const bytes = await drain(streamText({ model, prompt: "Talk." }).toUIMessageStreamResponse());
		if (bytes < REPLY.length) throw new Error("ai: short body");
	},
};

/** CPU milliseconds per MB of reply text over `runs` runs. */
async function measure(side, runs) {
	const start = process.cpuUsage();
	for (let index = 0; index < runs; index++) await sides[side]();
	const used = process.cpuUsage(start);
	return (used.user + used.system) / 1000 / (runs * MB);
}

log(`warming up (${WARMUP_RUNS} runs per side, ${fmt(MB * 1000)} KB per reply, ${aiDeltas.length} deltas)`);
for (const side of Object.keys(sides)) await measure(side, Math.min(WARMUP_RUNS, RUNS[side]));
const samples = { plain: [], adapter: [], aiSdk: [] };
const adapterRatios = [];
const aiRatios = [];
for (let round = 0; round < ROUNDS; round++) {
	const order = round % 2 === 0 ? ["plain", "adapter", "aiSdk"] : ["aiSdk", "adapter", "plain"];
	const cpu = {};
	for (const side of order) cpu[side] = await measure(side, RUNS[side]);
	for (const side of order) samples[side].push(cpu[side]);
	adapterRatios.push(cpu.adapter / cpu.plain);
	aiRatios.push(cpu.aiSdk / cpu.adapter);
	log(`round ${round + 1}/${ROUNDS}: plain ${fmt(cpu.plain)}, adapter ${fmt(cpu.adapter)}, AI SDK ${fmt(cpu.aiSdk)} ms per MB`);
}
const span = (s) => `${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})`;
const adapterRatio = summarize(adapterRatios);
const aiRatio = summarize(aiRatios);
const report = `# UI message stream benchmark (issue 36)

CPU per MB of streamed reply text: one ${fmt(MB * 1000)} KB text reply in ${aiDeltas.length} deltas of 4–8 characters,
${ROUNDS} alternating rounds of ${RUNS_PER_ROUND} runs per side (${RUNS.aiSdk} of the AI SDK's), warm, on the built packages. Regenerate with
\`pnpm --filter @pi/bench bench:ui-stream\`.

${machineLine(machineInfo())}

| side | CPU ms per MB, median (min–max) | ratio |
| --- | --- | --- |
| plain: our agent run (faux provider), no adapter | ${span(summarize(samples.plain))} | 1× |
| adapter: the same run through \`createAgentUIStreamResponse\`, SSE body read | ${span(summarize(samples.adapter))} | ${fmtRatio(adapterRatio.median)} of plain (${fmt(adapterRatio.min)}–${fmt(adapterRatio.max)}) |
| AI SDK: \`streamText(…).toUIMessageStreamResponse()\` on \`MockLanguageModelV4\`, same deltas | ${span(summarize(samples.aiSdk))} | ${fmtRatio(aiRatio.median)} of the adapter (${fmt(aiRatio.min)}–${fmt(aiRatio.max)}) |

The goal (issue 36): the adapter at most 1.1× the run without it, and below the AI SDK's own path.
The adapter's SSE body joins the deltas of one part that arrive in one turn of the event loop
(the client would see them at the same moment): on this fast scripted source that is most of
them, on a network-paced provider each read's deltas. The text delivered is the same.
The "plain" run already includes our provider machinery (events, the partial message), and the
AI SDK side includes its own \`streamText\` loop: each side is a whole path from a model's deltas to
the bytes (or events) a server has, so the ratios compare whole paths.
`;
process.stdout.write(report);
if (!quick) writeFileSync(fileURLToPath(new URL("../UI-STREAM.md", import.meta.url)), report);
faux.unregister();
