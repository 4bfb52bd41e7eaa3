/**
 * `estimateContextTokens` and `findCutPoint` of @pi/agent-core on long transcripts (user turns,
 * replies with tool calls, tool results of 200–4,000 characters, an image now and then), built
 * fresh for every run so that nothing is cached from the run before. argv: runs, then sizes in
 * messages. Prints one JSON line with the per-run times in milliseconds.
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

/** @type {Record<string, { estimateMs: number[], cutMs: number[], tokens: number, firstKeptIndex: number }>} */
const results = {};
for (const size of sizeArgs.map(Number)) {
	const entry = { estimateMs: [], cutMs: [], tokens: 0, firstKeptIndex: 0 };
	// One untimed run first, so both functions run optimised code.
	for (let run = -1; run < runs; run++) {
		const forEstimate = transcript(size);
		const forCut = transcript(size);
		globalThis.gc?.();
		let t0 = process.hrtime.bigint();
		const estimate = estimateContextTokens(forEstimate);
		const estimateMs = Number(process.hrtime.bigint() - t0) / 1e6;
		globalThis.gc?.();
		t0 = process.hrtime.bigint();
		const cut = findCutPoint(forCut, 20_000);
		const cutMs = Number(process.hrtime.bigint() - t0) / 1e6;
		if (run >= 0) {
			entry.estimateMs.push(estimateMs);
			entry.cutMs.push(cutMs);
		}
		entry.tokens = estimate.tokens;
		entry.firstKeptIndex = cut.firstKeptIndex;
	}
	results[String(size)] = entry;
}
console.log(JSON.stringify(results));
