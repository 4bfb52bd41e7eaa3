/**
 * `pnpm --filter @pi/bench bench:schemas`: what a zod schema costs a tool beside the same tool in
 * typebox (issue 37: "converting a schema happens once per schema object; measure it"), on the
 * built package (`dist/`).
 *
 * Each round defines 100 tools (fresh schema objects, so nothing is cached yet) with five
 * parameters each (a string, an enum with a default, an integer, an optional string, an array of
 * objects), in zod and in typebox, then sends them in one Chat Completions request to the local
 * replay server (a real capture answers) and then in REPEATS more requests with the same tool
 * objects. Reported, per library, as the median (min–max) over the rounds:
 * - define: building the 100 schemas;
 * - first request: the request that converts them (`~standard.jsonSchema` for zod, a JSON copy for
 *   typebox) plus everything a request costs (body, HTTP, stream);
 * - later request: the same tools again (the converted schemas come from the cache);
 * - convert: `resolveSchema(…).jsonSchema()` alone over 100 fresh schemas, the conversion's own cost.
 * Wall-clock milliseconds in this process; the replay server runs in it too, alike for both.
 *
 * Prints a markdown report and writes bench/SCHEMAS.md (`--quick`: fewer rounds, nothing written).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { complete, resolveSchema } from "@pi/ai";
import { Type } from "@pi/ai/schema";
import { loadFixture, sseResponse, startReplayServer } from "@pi/ai/testing";
import { z } from "zod";
import { BENCH_DIR } from "./lib/child.js";
import { machineInfo, machineLine } from "./lib/machine.js";
import { fmtSummary, summarize } from "./lib/stats.js";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 3 : 15;
const TOOLS = 100;
const REPEATS = 5;
const log = (/** @type {string} */ text) => process.stderr.write(`[bench:schemas] ${text}\n`);

const LIBRARIES = {
	zod: (i) =>
		z.object({
			[`city${i}`]: z.string().describe("A city"),
			unit: z.enum(["c", "f"]).default("c"),
			days: z.number().int().default(1),
			note: z.string().optional(),
			stops: z.array(z.object({ name: z.string(), nights: z.number() })),
		}),
	typebox: (i) =>
		Type.Object({
			[`city${i}`]: Type.String({ description: "A city" }),
			unit: Type.Optional(Type.Union([Type.Literal("c"), Type.Literal("f")], { default: "c" })),
			days: Type.Optional(Type.Integer({ default: 1 })),
			note: Type.Optional(Type.String()),
			stops: Type.Array(Type.Object({ name: Type.String(), nights: Type.Number() })),
		}),
};

const server = await startReplayServer();
const capture = loadFixture("openai-completions", "text-basic");
const model = { id: "gpt-4o", name: "gpt-4o", api: "openai-completions", provider: "bench", baseUrl: `${server.url}/v1`, reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128_000, maxTokens: 1000 };
const messages = [{ role: "user", content: "Hi", timestamp: 0 }];

async function send(tools) {
	server.reset();
	server.enqueue(sseResponse(capture));
	const started = performance.now();
	const reply = await complete(model, { messages, tools }, { apiKey: "bench-key" });
	const elapsed = performance.now() - started;
	if (reply.stopReason !== "stop") throw new Error(`${reply.stopReason}: ${reply.errorMessage}`);
	const sent = server.requests[0]?.json?.tools;
	if (!Array.isArray(sent) || sent.length !== TOOLS) throw new Error("the request did not carry the tools");
	return { elapsed, bytes: server.requests[0].body.length };
}

async function round(library) {
	const build = LIBRARIES[library];
	let started = performance.now();
	const tools = Array.from({ length: TOOLS }, (_, i) => ({ name: `tool_${i}`, description: `Tool ${i}`, parameters: build(i) }));
	const define = performance.now() - started;
	const first = await send(tools);
	const later = [];
	for (let i = 0; i < REPEATS; i++) later.push((await send(tools)).elapsed);
	const fresh = Array.from({ length: TOOLS }, (_, i) => build(i));
	started = performance.now();
	for (const schema of fresh) resolveSchema(schema, "bench schema").jsonSchema();
	const convert = performance.now() - started;
	return { define, first: first.elapsed, later: summarize(later).median, convert, bytes: first.bytes };
}

const samples = { zod: [], typebox: [] };
// Untimed warm-up: module loading and JIT, for both.
for (const library of Object.keys(LIBRARIES)) await round(library);
for (let i = 0; i < ROUNDS; i++) {
	// Alternate which goes first.
	const order = i % 2 === 0 ? ["zod", "typebox"] : ["typebox", "zod"];
	for (const library of order) samples[library].push(await round(library));
	log(`round ${i + 1}/${ROUNDS}`);
}
await server.close();

const column = (library, key) => fmtSummary(summarize(samples[library].map((sample) => sample[key])));
const rows = Object.keys(LIBRARIES).map(
	(library) => `| ${library} | ${column(library, "define")} | ${column(library, "convert")} | ${column(library, "first")} | ${column(library, "later")} | ${samples[library][0].bytes.toLocaleString("en-US")} |`,
);
const report = `# 100 tools in zod vs typebox

\`pnpm --filter @pi/bench bench:schemas\` (bench/src/schemas.js). ${TOOLS} tools of five parameters each,
defined in each library and sent in one Chat Completions request to the local replay server, then
${REPEATS} more requests with the same tool objects. Milliseconds, median (min–max) over ${ROUNDS} rounds, after a
warm-up round. Machine: ${machineLine(machineInfo())}.

| library | define 100 tools | convert 100 schemas (cold) | first request | later request (cached) | request body bytes |
| --- | --- | --- | --- | --- | --- |
${rows.join("\n")}

- *convert* is \`resolveSchema(schema).jsonSchema()\` over 100 fresh schema objects: zod's
  \`~standard.jsonSchema.input\`, a JSON copy for typebox. It is paid once per schema object: a
  later request reads the cache (\`later request\` vs \`first request\`).
- The request bodies differ in size because zod writes \`minimum\`/\`maximum\` for \`.int()\` and
  \`default\` for every defaulted field.
`;
process.stdout.write(report);
if (!quick) writeFileSync(join(BENCH_DIR, "SCHEMAS.md"), report);
