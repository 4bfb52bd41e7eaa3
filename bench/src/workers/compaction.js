/**
 * `estimateContextTokens` and `findCutPoint` of @pi/agent-core on long transcripts (user turns,
 * replies with tool calls, tool results of 200–4,000 characters, an image now and then), made
 * through JSON as if read from a session file. argv: runs, then sizes in
 * messages. Prints one JSON line with the per-run wall and CPU times in milliseconds per call
 * (CPU: the process's user + system time, GC threads included; steadier on a shared machine).
 *
 * estimateContextTokens is measured with no usage in the transcript (every message estimated:
 * its worst case); findCutPoint keeps 20,000 tokens, the default.
 */
import { estimateContextTokens, findCutPoint } from "@pi/agent-core";

const [runsArg, ...sizeArgs] = process.argv.slice(2);
const runs = Number(runsArg);
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAoAAAAHgCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const ZERO = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** A transcript of `size` messages: turns of user, reply with 1–3 calls, their results, final reply. */
function transcript(size) {
	const messages = [];
	let n = 0;
	while (messages.length < size) {
		messages.push({ role: "user", content: `Please look at module ${n} and fix the failing test in it; keep the public names.`, timestamp: n });
		const calls = 1 + (n % 3);
		const content = [{ type: "text", text: "Let me read the files first." }];
		for (let index = 0; index < calls; index++) content.push({ type: "toolCall", id: `call_${n}_${index}`, name: "read_file", arguments: { path: `src/module${n}/file${index}.ts` } });
		messages.push({ role: "assistant", content, api: "faux", provider: "faux", model: "faux-1", usage: ZERO, stopReason: "toolUse", timestamp: n });
		for (let index = 0; index < calls; index++) {
			const text = `export const value${n} = ${index};\n`.repeat(5 + ((n * 7 + index * 13) % 100));
			const result = [{ type: "text", text }];
			if ((n + index) % 17 === 0) result.push({ type: "image", mimeType: "image/png", data: PNG });
			messages.push({ role: "toolResult", toolCallId: `call_${n}_${index}`, toolName: "read_file", content: result, isError: false, timestamp: n });
		}
		messages.push({ role: "assistant", content: [{ type: "text", text: `Fixed module ${n}: the test expected the old name.` }], api: "faux", provider: "faux", model: "faux-1", usage: ZERO, stopReason: "stop", timestamp: n });
		n++;
	}
	// Through JSON, as a transcript read from a session file or the network: flat strings, not the
	// ropes `repeat` builds (a first scan would flatten them, and that would be measured instead).
	return JSON.parse(JSON.stringify(messages.slice(0, size)));
}

/**
 * Times `fn` on `inputs` and returns the milliseconds per call, wall and CPU. Every sample touches
 * 10,000 messages in all (ten transcripts of 1,000, or one of 10,000), so that both sizes run with
 * the same memory traffic and the comparison shows the algorithm.
 */
function timePerCall(inputs, fn) {
	globalThis.gc?.();
	const cpu0 = process.cpuUsage();
	const t0 = process.hrtime.bigint();
	let last;
	for (const input of inputs) last = fn(input);
	const wallMs = Number(process.hrtime.bigint() - t0) / 1e6 / inputs.length;
	const cpu = process.cpuUsage(cpu0);
	return { ms: wallMs, cpuMs: (cpu.user + cpu.system) / 1e3 / inputs.length, last };
}

/** @type {Record<string, { estimateMs: number[], cutMs: number[], estimateCpuMs: number[], cutCpuMs: number[], tokens: number, firstKeptIndex: number }>} */
const results = {};
const sizes = sizeArgs.map(Number);
const largest = Math.max(...sizes);
// Built once: neither function caches anything between calls, so the inputs can be reused, and
// no garbage from building them is swept while a sample runs.
const inputs = new Map(sizes.map((size) => [size, Array.from({ length: Math.max(1, Math.round(largest / size)) }, () => transcript(size))]));
for (const size of sizes) results[String(size)] = { estimateMs: [], cutMs: [], estimateCpuMs: [], cutCpuMs: [], tokens: 0, firstKeptIndex: 0 };
// Sizes take turns within each run, so that a slow spell of the machine hits both; two untimed
// runs first, so that both functions run optimised code.
for (let run = -2; run < runs; run++) {
	for (const size of run % 2 === 0 ? sizes : [...sizes].reverse()) {
		const entry = results[String(size)];
		const list = inputs.get(size);
		const estimate = timePerCall(list, (messages) => estimateContextTokens(messages));
		const cut = timePerCall(list, (messages) => findCutPoint(messages, 20_000));
		if (run >= 0) {
			entry.estimateMs.push(estimate.ms);
			entry.cutMs.push(cut.ms);
			entry.estimateCpuMs.push(estimate.cpuMs);
			entry.cutCpuMs.push(cut.cpuMs);
		}
		entry.tokens = estimate.last.tokens;
		entry.firstKeptIndex = cut.last.firstKeptIndex;
	}
}
console.log(JSON.stringify(results));
