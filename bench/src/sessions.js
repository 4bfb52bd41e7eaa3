/**
 * `pnpm --filter @pi/bench bench:sessions`: the session benchmarks of issue 11, against their
 * floors, on the built package (`dist/`).
 *
 * - Open + buildContext of a JSONL session of 1,000 and 10,000 entries, against the floor: read
 *   the file and `JSON.parse` every line. Goal: within 3×.
 * - One append (`flush` and `fsync`), against a bare `FileHandle.write` of the same line (plus
 *   `datasync()` for fsync). Goal: within 3×.
 * - Memory after open: a 10,000-entry file whose active path is 100 entries, against one whose
 *   active path is all 10,000 (the active path is what stays in memory).
 * - Branches (issue 24): open + buildContext of the active path, and open + buildContext of an
 *   old branch (read for the call, the leaf unmoved), at 10,000 entries in 100 branches, on the
 *   JSONL and memory storages, with the heap the open session holds after each.
 *
 * Prints a markdown report and writes bench/SESSIONS.md (`--quick`: fewer runs, nothing written).
 * `--section=branches` runs only the branches section and replaces just that section of
 * bench/SESSIONS.md.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createMemorySessionStorage, openSession } from "@pi/agent-core";
import { openSessionFile } from "@pi/agent-core/node";
import { machineInfo, machineLine } from "./lib/machine.js";
import { fmt, summarize } from "./lib/stats.js";

const quick = process.argv.includes("--quick");
const only = process.argv.find((arg) => arg.startsWith("--section="))?.slice("--section=".length);
const RUNS = quick ? 3 : 9;
const APPENDS = { flush: quick ? 300 : 3000, fsync: quick ? 30 : 300 };
const folder = mkdtempSync(join(tmpdir(), "pi-bench-sessions-"));
const log = (/** @type {string} */ text) => process.stderr.write(`[bench:sessions] ${text}\n`);

/** A realistic entry: user prompts, replies with text or tool calls, tool results (~0.6 KB each). */
function message(index) {
	const t = 1_764_000_000_000 + index;
	const text = `Entry ${index}: ${"The quick brown fox jumps over the lazy dog. ".repeat(10)}`;
	switch (index % 4) {
		case 0:
			return { role: "user", content: text, timestamp: t };
		case 1:
			return {
				role: "assistant",
				content: [{ type: "toolCall", id: `call_${index}`, name: "lookup", arguments: { query: text.slice(0, 80) } }],
				api: "openai-responses",
				provider: "openai",
				model: "gpt-6-luna",
				usage: { input: 1200, output: 40, cacheRead: 0, cacheWrite: 0, totalTokens: 1240, cost: { input: 0.00012, output: 0.00002, cacheRead: 0, cacheWrite: 0, total: 0.00014 } },
				stopReason: "toolUse",
				timestamp: t,
			};
		case 2:
			return { role: "toolResult", toolCallId: `call_${index - 1}`, toolName: "lookup", content: [{ type: "text", text }], isError: false, timestamp: t };
		default:
			return {
				role: "assistant",
				content: [{ type: "text", text }],
				api: "openai-responses",
				provider: "openai",
				model: "gpt-6-luna",
				usage: { input: 1300, output: 120, cacheRead: 1000, cacheWrite: 0, totalTokens: 1420, cost: { input: 0.00013, output: 0.00006, cacheRead: 0.00001, cacheWrite: 0, total: 0.0002 } },
				stopReason: "stop",
				timestamp: t,
			};
	}
}

/** `count` message entries; `branchEvery` > 0 starts a new branch from the root that often. */
function sessionEntries(count, branchEvery = 0) {
	const entries = [];
	let parentId = null;
	for (let index = 0; index < count; index++) {
		if (branchEvery > 0 && index % branchEvery === 0) parentId = null;
		const id = entryId(index);
		entries.push({ type: "message", message: message(index), id, parentId, timestamp: 1_764_000_000_000 + index });
		parentId = id;
	}
	return entries;
}

function entryId(index) {
	return `e${index.toString(16).padStart(8, "0")}`;
}

/** Writes a session file of `count` entries; `branchEvery` > 0 starts a new branch from the root that often. */
function writeSessionFile(path, count, branchEvery = 0) {
	const lines = [JSON.stringify({ type: "session", version: 1, id: "bench", timestamp: 1_764_000_000_000 })];
	for (const entry of sessionEntries(count, branchEvery)) lines.push(JSON.stringify(entry));
	writeFileSync(path, `${lines.join("\n")}\n`);
}

async function floorRead(path) {
	const text = await readFile(path, "utf8");
	let parsed = 0;
	for (const line of text.split("\n")) if (line) (JSON.parse(line), parsed++);
	return parsed;
}

async function oursOpen(path) {
	const session = await openSessionFile(path);
	const context = await session.buildContext();
	await session.close();
	return context.messages.length;
}

async function time(fn) {
	const t0 = process.hrtime.bigint();
	await fn();
	return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** Alternating runs of the floor and ours, after one warm-up each. */
async function measureOpen(count) {
	const path = join(folder, `open-${count}.jsonl`);
	writeSessionFile(path, count);
	await floorRead(path);
	await oursOpen(path);
	const floor = [];
	const ours = [];
	for (let run = 0; run < RUNS; run++) {
		floor.push(await time(() => floorRead(path)));
		ours.push(await time(() => oursOpen(path)));
	}
	const f = summarize(floor);
	const o = summarize(ours);
	return { count, floor: f, ours: o, ratio: o.median / f.median };
}

async function measureAppend(durability) {
	const n = APPENDS[durability];
	const bare = [];
	const ours = [];
	for (let run = 0; run < Math.max(3, Math.ceil(RUNS / 2)); run++) {
		const barePath = join(folder, `bare-${durability}-${run}.jsonl`);
		const file = await open(barePath, "a");
		const t0 = process.hrtime.bigint();
		for (let index = 0; index < n; index++) {
			const line = `${JSON.stringify({ type: "message", message: message(index), id: `x${index}`, parentId: null, timestamp: 1 })}\n`;
			await file.write(line);
			if (durability === "fsync") await file.datasync();
		}
		bare.push(Number(process.hrtime.bigint() - t0) / 1e3 / n);
		await file.close();

		const session = await openSessionFile(join(folder, `ours-${durability}-${run}.jsonl`), { durability });
		const t1 = process.hrtime.bigint();
		for (let index = 0; index < n; index++) await session.appendMessage(message(index));
		ours.push(Number(process.hrtime.bigint() - t1) / 1e3 / n);
		await session.close();
	}
	const b = summarize(bare);
	const o = summarize(ours);
	return { durability, appends: n, bare: b, ours: o, ratio: o.median / b.median };
}

async function measureMemory() {
	const linear = join(folder, "memory-linear.jsonl");
	const branchy = join(folder, "memory-branchy.jsonl");
	writeSessionFile(linear, 10_000);
	writeSessionFile(branchy, 10_000, 100);
	const heapAfterOpen = async (path) => {
		globalThis.gc?.();
		const before = process.memoryUsage().heapUsed;
		const session = await openSessionFile(path);
		globalThis.gc?.();
		const after = process.memoryUsage().heapUsed;
		const length = (await session.buildContext()).messages.length;
		await session.close();
		return { mb: (after - before) / 1e6, activePath: length };
	};
	return { linear: await heapAfterOpen(linear), branchy: await heapAfterOpen(branchy), gc: typeof globalThis.gc === "function" };
}

const BRANCH_ENTRIES = 10_000;
const BRANCHES = 100;

/**
 * Open + buildContext at 10,000 entries in 100 branches of 100 from the root: of the active path
 * (the newest branch), and of the oldest branch's tip (read from the storage for the call; the
 * leaf stays). The heap is what the open session holds afterwards, measured after gc().
 */
async function measureBranches() {
	const perBranch = BRANCH_ENTRIES / BRANCHES;
	const oldTip = entryId(perBranch - 1);
	const filePath = join(folder, "branches.jsonl");
	writeSessionFile(filePath, BRANCH_ENTRIES, perBranch);
	const memory = createMemorySessionStorage({ id: "bench" });
	await memory.append(sessionEntries(BRANCH_ENTRIES, perBranch), null);
	const storages = [
		{ name: "JSONL file", open: (options) => openSessionFile(filePath, options) },
		// The same storage, opened again after each close: how a restart is simulated in memory.
		{ name: "memory", open: (options) => openSession(memory, options) },
	];
	const HELD = 10;
	const ROUNDS = 7;
	const gc = () => {
		globalThis.gc?.();
		globalThis.gc?.();
	};
	const rows = [];
	for (const storage of storages) {
		for (const target of ["active path", "old branch"]) {
			const run = async (options) => {
				const session = await storage.open(options);
				const leaf = session.leafId;
				const context = await session.buildContext(target === "old branch" ? oldTip : undefined);
				if (session.leafId !== leaf) throw new Error("buildContext moved the leaf");
				return { session, context };
			};
			const warm = await run();
			await warm.session.close();
			const times = [];
			let messages = 0;
			for (let index = 0; index < RUNS; index++) {
				const t0 = process.hrtime.bigint();
				const { session, context } = await run();
				times.push(Number(process.hrtime.bigint() - t0) / 1e6);
				messages = context.messages.length;
				await session.close();
			}
			// The heap of HELD sessions open at once (readers, so that none waits for the lock),
			// each with its context, divided by HELD: one session's share. V8's heap after gc()
			// still jumps by megabytes now and then (garbage of the set-up freed late), so this is
			// the median of ROUNDS rounds.
			const shares = [];
			for (let round = 0; round < ROUNDS; round++) {
				gc();
				const before = process.memoryUsage().heapUsed;
				const held = [];
				for (let index = 0; index < HELD; index++) held.push(await run({ lock: false }));
				gc();
				shares.push((process.memoryUsage().heapUsed - before) / HELD / 1e6);
				for (const { session } of held) await session.close();
			}
			const heapMb = summarize(shares).median;
			rows.push({ storage: storage.name, target, messages, time: summarize(times), heapMb });
		}
	}
	return rows;
}

const BRANCHES_HEADING = "## Open + buildContext of the active path and of an old branch (10,000 entries, 100 branches)";

function branchesSection(rows) {
	return [
		BRANCHES_HEADING,
		"",
		`- Date: ${new Date().toISOString().slice(0, 10)}; machine: ${machineLine(machineInfo())}; command: \`pnpm --filter @pi/bench bench:sessions -- --section=branches\` (or a full \`bench:sessions\`).`,
		"",
		`Median of ${RUNS} runs (min–max). The old branch is the oldest one's tip: its 100 entries are read from the storage for the call (the read stops at the last one) and not kept, and the leaf does not move. Heap: what one open session holds afterwards with its context (10 held at once, divided by 10; the median of 7 rounds), after \`gc()\`${typeof globalThis.gc === "function" ? "" : " (run without --expose-gc: includes garbage)"}.`,
		"",
		"| storage | context of | messages | open + buildContext (ms) | heap held after (MB) |",
		"| --- | --- | --- | --- | --- |",
		...rows.map((r) => `| ${r.storage} | ${r.target} | ${r.messages} | ${fmt(r.time.median)} (${fmt(r.time.min)}–${fmt(r.time.max)}) | ${fmt(r.heapMb)} |`),
	];
}

/** Replaces the branches section of SESSIONS.md (or adds it at the end), leaving the rest as it was. */
function writeBranchesSection(lines) {
	const file = fileURLToPath(new URL("../SESSIONS.md", import.meta.url));
	const text = readFileSync(file, "utf8");
	const start = text.indexOf(BRANCHES_HEADING);
	const section = `${lines.join("\n")}\n`;
	if (start < 0) {
		writeFileSync(file, `${text.trimEnd()}\n\n${section}`);
		return;
	}
	const next = text.indexOf("\n## ", start + BRANCHES_HEADING.length);
	writeFileSync(file, `${text.slice(0, start)}${section}${next < 0 ? "" : `\n${text.slice(next + 1)}`}`);
}

try {
	if (only === "branches") {
		log("branches");
		const lines = branchesSection(await measureBranches());
		process.stdout.write(`${lines.join("\n")}\n`);
		if (!quick) writeBranchesSection(lines);
	} else {
		if (only !== undefined) throw new Error(`unknown --section=${only} (known: branches)`);
		log("open + buildContext");
		const opens = [await measureOpen(1_000), await measureOpen(10_000)];
		log("appends");
		const appends = [await measureAppend("flush"), await measureAppend("fsync")];
		log("memory");
		const memory = await measureMemory();
		log("branches");
		const branches = await measureBranches();
		const lines = [
			"# Session benchmarks (issue 11)",
			"",
			`- Date: ${new Date().toISOString().slice(0, 10)}; machine: ${machineLine(machineInfo())}`,
			`- Command: \`pnpm --filter @pi/bench bench:sessions${quick ? " --quick" : ""}\`; each cell is the median of ${RUNS} runs (open) or ${Math.max(3, Math.ceil(RUNS / 2))} runs (append) with the (min–max) spread. Ratio: ours / floor (lower is better; the goal is ≤ 3×).`,
			"",
			"## Open + buildContext vs reading the file and JSON.parse of every line",
			"",
			"| entries | floor (ms) | ours: openSessionFile + buildContext + close (ms) | ratio | goal ≤ 3× |",
			"| --- | --- | --- | --- | --- |",
			...opens.map((r) => `| ${r.count.toLocaleString("en")} | ${fmt(r.floor.median)} (${fmt(r.floor.min)}–${fmt(r.floor.max)}) | ${fmt(r.ours.median)} (${fmt(r.ours.min)}–${fmt(r.ours.max)}) | ${fmt(r.ratio)}× | ${r.ratio <= 3 ? "**met**" : "missed"} |`),
			"",
			"## One append vs a bare FileHandle.write of the same line",
			"",
			"| durability | appends per run | bare (µs each) | ours: session.appendMessage (µs each) | ratio | goal ≤ 3× |",
			"| --- | --- | --- | --- | --- | --- |",
			...appends.map((r) => `| ${r.durability} | ${r.appends} | ${fmt(r.bare.median)} (${fmt(r.bare.min)}–${fmt(r.bare.max)}) | ${fmt(r.ours.median)} (${fmt(r.ours.min)}–${fmt(r.ours.max)}) | ${fmt(r.ratio)}× | ${r.ratio <= 3 ? "**met**" : "missed"} |`),
			"",
			"## Memory after open (10,000 entries, ~0.6 KB each)",
			"",
			"| file | active path | heap growth after open (MB) |",
			"| --- | --- | --- |",
			`| one linear branch | ${memory.linear.activePath} messages | ${fmt(memory.linear.mb)} |`,
			`| 100 branches of 100 from the root | ${memory.branchy.activePath} messages | ${fmt(memory.branchy.mb)} |`,
			"",
			memory.gc ? "Heap measured after `gc()` (run with `--expose-gc`)." : "Run without `--expose-gc`: heap figures include garbage.",
			"",
			"The floor of an append is the bare write of an already serialized line; ours also builds the entry, serializes it, checks its shape and compares the file's size with the last known one (one `fstat`), which is how a second writer is caught.",
			"",
			...branchesSection(branches),
		];
		const markdown = lines.join("\n");
		process.stdout.write(`${markdown}\n`);
		if (!quick) writeFileSync(fileURLToPath(new URL("../SESSIONS.md", import.meta.url)), `${markdown}\n`);
	}
} finally {
	rmSync(folder, { recursive: true, force: true });
}
