/**
 * Renders results as the markdown of RESULTS.md (also printed to stdout) and judges the goals.
 * Ratios are always "how many times better ours is": above 1 favours ours.
 */
import { advantage, fmt, fmtRatio, fmtSummary } from "./stats.js";
import { machineLine } from "./machine.js";
import { REFERENCE_VERSION } from "./libraries.js";
import { peerGoals, renderPeerRepeats, renderPeers } from "./report-peers.js";

/** @param {boolean | null} ok */
const verdict = (ok) => (ok === null ? "not measured" : ok ? "**met**" : "**missed**");

/**
 * Every goal of the task with its figure.
 * @param {any} r the results object
 * @returns {{ goal: string, figure: string, met: boolean | null }[]}
 */
export function judgeGoals(r) {
	const goals = [];
	if (r.coldStart) {
		const c = r.coldStart;
		const aiRatio = advantage(c.ai.ours.median, c.ai.ref.median, "lower");
		const agentRatio = advantage(c.agent.ours.median, c.agent.ref.median, "lower");
		goals.push({
			goal: "Cold start: ≥5× less import overhead than the reference",
			figure: `@pi/ai +${fmt(c.ai.ours.median)} ms vs +${fmt(c.ai.ref.median)} ms (${fmtRatio(aiRatio)}); @pi/agent-core +${fmt(c.agent.ours.median)} ms vs +${fmt(c.agent.ref.median)} ms (${fmtRatio(agentRatio)})`,
			met: aiRatio !== null && agentRatio !== null && aiRatio >= 5 && agentRatio >= 5,
		});
		goals.push({
			goal: "Cold start: within 30 ms of bare Node",
			figure: `@pi/ai +${fmt(c.ai.ours.median)} ms, @pi/agent-core +${fmt(c.agent.ours.median)} ms over bare node (${fmt(c.bareNodeMs.median)} ms)`,
			met: c.ai.ours.median <= 30 && c.agent.ours.median <= 30,
		});
	}
	if (r.footprint) {
		const f = r.footprint;
		const ratio = f.ref.mb / f.ours.mb;
		goals.push({ goal: "Footprint: ≤1/20 of the reference's node_modules", figure: `${fmt(f.ours.mb)} MB vs ${fmt(f.ref.mb)} MB (1/${fmt(ratio)}); ${f.ours.packages} vs ${f.ref.packages} packages`, met: ratio >= 20 });
	}
	if (r.streaming) {
		let worst = Infinity;
		let worstRow = "";
		const misses = [];
		for (const row of r.streaming) {
			const evRatio = advantage(row.ours.eventsPerSec.median, row.ref.eventsPerSec.median, "higher") ?? 0;
			const cpuRatio = advantage(row.ours.cpuMsPerMB.median, row.ref.cpuMsPerMB.median, "lower") ?? 0;
			const low = Math.min(evRatio, cpuRatio);
			if (low < worst) {
				worst = low;
				worstRow = `${row.api} ${row.cls}`;
			}
			if (low < 2) misses.push(`${row.api} ${row.cls} (${fmtRatio(evRatio)} events/s, ${fmtRatio(cpuRatio)} CPU)`);
		}
		goals.push({
			goal: "Streaming: ≥2× the reference (events/s and CPU ms/MB), every API and class",
			figure: misses.length === 0 ? `lowest ratio ${fmtRatio(worst)} (${worstRow})` : `below 2×: ${misses.join("; ")}`,
			met: misses.length === 0,
		});
	}
	if (r.largeArgs) {
		const l = r.largeArgs;
		const at100k = l.rows.find((/** @type {any} */ row) => row.argsBytes === 100_000);
		const ratio = at100k?.ref ? advantage(at100k.ours.median, at100k.ref.median, "lower") : null;
		goals.push({ goal: "Large tool-call arguments: ours linear (100 KB → 1 MB growth ≤12×)", figure: `${fmt(l.oursGrowth100kTo1M)}× for 10× the data`, met: l.oursGrowth100kTo1M <= 12 });
		goals.push({
			goal: "Large tool-call arguments: ≥50× faster than the reference at 100 KB",
			figure: at100k?.ref ? `${fmt(at100k.ours.median)} ms vs ${fmt(at100k.ref.median)} ms (${fmtRatio(ratio)})` : "reference not measured at 100 KB in this run",
			met: ratio === null ? null : ratio >= 50,
		});
		const overFloor = l.rows.filter((/** @type {any} */ row) => row.argsBytes >= 100_000 && row.floorCpu).map((/** @type {any} */ row) => ({ size: row.argsBytes, ratio: row.oursCpu.median / row.floorCpu.median }));
		if (overFloor.length > 0) {
			goals.push({
				goal: "Large tool-call arguments: ≤1.5× the floor's CPU at 100 KB and 1 MB",
				figure: overFloor.map((entry) => `${fmt(entry.size / 1000)} KB ${fmtRatio(entry.ratio)}`).join(", "),
				met: overFloor.every((entry) => entry.ratio <= 1.5),
			});
		}
		goals.push({
			goal: "Streaming JSON parser: 10× the data (1 MB → 10 MB) costs ≤12× the time",
			figure: `${fmt(l.parser.oneMB.streaming.median)} ms → ${fmt(l.parser.tenMB.streaming.median)} ms (${fmt(l.parserGrowth1MTo10M)}×); \`JSON.parse\` of the same texts in the same process ${fmt(l.parser.oneMB.jsonParse.median)} → ${fmt(l.parser.tenMB.jsonParse.median)} ms (${fmt(l.parser.tenMB.jsonParse.median / l.parser.oneMB.jsonParse.median)}×): both grow faster than the data because V8's collections of a larger live value do (with \`--trace-gc\`, GC was about a third of the process's time at 1 MB and half at 10 MB)`,
			met: l.parserGrowth1MTo10M <= 12,
		});
	}
	if (r.peers) goals.push(...peerGoals(r.peers));
	if (r.cliStart) {
		const c = r.cliStart;
		goals.push({
			goal: "CLI start-up: `pi-ai --help` and `pi-ai models` within 80 ms of bare Node",
			figure: `--help +${fmt(c.help.median)} ms, models +${fmt(c.models.median)} ms over bare node (${fmt(c.bareNodeMs.median)} ms); CPU +${fmt(c.helpCpu.median)} ms and +${fmt(c.modelsCpu.median)} ms`,
			met: c.help.median <= 80 && c.models.median <= 80,
		});
	}
	if (r.cassetteReplay) {
		const c = r.cassetteReplay;
		const ratio = c.cassette.cpuMs.median / c.plain.cpuMs.median;
		goals.push({
			goal: "Test kit: replaying a cassette costs no more than the same bytes from the plain replay server (CPU ≤1.10×, noise margin)",
			figure: `${fmt(c.cassette.cpuMs.median)} vs ${fmt(c.plain.cpuMs.median)} CPU ms per ${fmt(c.mb)} MB (${fmt(ratio)}×)`,
			met: ratio <= 1.1,
		});
	}
	if (r.typeCheck) {
		const withSkip = r.typeCheck.rows.find((/** @type {any} */ row) => row.skipLibCheck);
		const withoutSkip = r.typeCheck.rows.find((/** @type {any} */ row) => !row.skipLibCheck);
		if (withSkip) {
			goals.push({
				goal: "Type-check: an app with 10 typed tools checks in <1 s of tsc check time (skipLibCheck)",
				figure: `${fmt(withSkip.ours.checkSeconds.median)} s, ${fmt(withSkip.ours.instantiations)} instantiations (reference ${fmt(withSkip.ref.checkSeconds.median)} s, ${fmt(withSkip.ref.instantiations)})`,
				met: withSkip.ours.checkSeconds.median < 1,
			});
		}
		if (withoutSkip) {
			goals.push({
				goal: "Type-check: the same app in <3 s without skipLibCheck",
				figure: `${fmt(withoutSkip.ours.checkSeconds.median)} s, ${fmt(withoutSkip.ours.instantiations)} instantiations; typebox's own declarations alone: ${fmt(withoutSkip.typeboxOnly.checkSeconds.median)} s, ${fmt(withoutSkip.typeboxOnly.instantiations)}`,
				met: withoutSkip.ours.checkSeconds.median < 3,
			});
		}
	}
	if (r.compaction) {
		const c = r.compaction;
		const at = (/** @type {number} */ size) => c.rows.find((/** @type {any} */ row) => row.messages === size);
		goals.push({
			goal: "Compaction: estimateContextTokens and findCutPoint linear (1,000 → 10,000 messages ≤12×)",
			figure: `estimate ${fmt(at(1_000)?.estimateCpu.median)} → ${fmt(at(10_000)?.estimateCpu.median)} CPU ms (${fmt(c.estimateGrowth1kTo10k)}×); findCutPoint ${fmt(at(1_000)?.cutCpu.median)} → ${fmt(at(10_000)?.cutCpu.median)} CPU ms (${fmt(c.cutGrowth1kTo10k)}×)`,
			met: c.estimateGrowth1kTo10k <= 12 && c.cutGrowth1kTo10k <= 12,
		});
	}
	return goals;
}

/**
 * @param {any} r the results object
 * @returns {string} markdown
 */
export function renderMarkdown(r) {
	const out = [];
	const line = (/** @type {string} */ text = "") => out.push(text);
	line(`# Benchmark results: @pi/ai and @pi/agent-core vs pi-ai / pi-agent-core ${REFERENCE_VERSION}`);
	line();
	line(`- Date: ${r.date}`);
	line(`- Machine: ${machineLine(r.machine)}`);
	if (r.commit) line(`- Source: commit ${r.commit}`);
	line(`- Command: \`${r.command}\`${r.quick ? " (smoke run: small sizes, single runs; not for conclusions)" : ""}; total ${fmt(r.totalSeconds)} s`);
	line(`- Each cell: median of the runs with the (min–max) spread; "ratio" is how many times better ours is (above 1 favours ours).`);
	line(`- Ours are the built packages (\`dist/\`, the \`import\` condition). Absolute times on a shared 2-core machine are noise; compare ratios.`);
	line();
	line("## Goals");
	line();
	line("| goal | figure | verdict |");
	line("| --- | --- | --- |");
	for (const g of judgeGoals(r)) line(`| ${g.goal} | ${g.figure} | ${verdict(g.met)} |`);
	line();

	if (r.coldStart) {
		const c = r.coldStart;
		line(`## 1. Cold start (${c.ai.ours.runs} rounds)`);
		line();
		line("Wall time of `node --input-type=module -e 'import \"<pkg>\"; …'` minus a bare `node -e '…'` started right before it (the `…` prints the process's own CPU time, which gives the CPU columns).");
		line();
		line("| import | ours (wall ms over bare node) | reference (wall ms over bare node) | ratio | ours (CPU ms over bare) | reference (CPU ms over bare) | ratio |");
		line("| --- | --- | --- | --- | --- | --- | --- |");
		for (const [label, entry] of [["`@pi/ai` vs `@mariozechner/pi-ai`", c.ai], ["`@pi/agent-core` vs `@mariozechner/pi-agent-core`", c.agent]]) {
			line(`| ${label} | ${fmtSummary(entry.ours)} | ${fmtSummary(entry.ref)} | ${fmtRatio(advantage(entry.ours.median, entry.ref.median, "lower"))} | ${fmtSummary(entry.oursCpu)} | ${fmtSummary(entry.refCpu)} | ${fmtRatio(advantage(entry.oursCpu?.median, entry.refCpu?.median, "lower"))} |`);
		}
		line(`| bare node itself | ${fmtSummary(c.bareNodeMs)} | | | ${fmtSummary(c.bareNodeCpuMs)} | | |`);
		line();
	}
	if (r.footprint) {
		const f = r.footprint;
		line("## 2. Footprint");
		line();
		line(`Ours: \`pnpm pack\` of both packages, \`npm i\` of the tarballs into an empty folder. Reference: \`npm i @mariozechner/pi-ai@${REFERENCE_VERSION} @mariozechner/pi-agent-core@${REFERENCE_VERSION}\`${f.ref.cachedInstall ? " (install cached in the temp folder from an earlier run)" : ""}. Size is the sum of file sizes under \`node_modules\` (MB = 10⁶ bytes).${f.reused ? ` **Figures reused from the full run of ${f.reusedFrom}** (\`--quick\` does not reinstall).` : ""}`);
		line();
		line("| | ours | reference | ratio |");
		line("| --- | --- | --- | --- |");
		line(`| node_modules size (MB) | ${fmt(f.ours.mb)} | ${fmt(f.ref.mb)} | ${fmtRatio(f.ref.mb / f.ours.mb)} |`);
		line(`| packages installed | ${f.ours.packages} | ${f.ref.packages} | ${fmtRatio(f.ref.packages / f.ours.packages)} |`);
		line();
		line(`Our tree: ${(f.ours.names ?? ["(names not recorded)"]).join(", ")}. Tarballs: ${Object.entries(f.ours.tarballBytes).map(([name, bytes]) => `${name} ${fmt(/** @type {number} */ (bytes) / 1e3)} kB`).join(", ")}.`);
		line();
	}
	if (r.streaming) {
		const s = r.streaming;
		line(`## 3. Streaming throughput (${s[0]?.ours.eventsPerSec.runs} runs per cell, ${fmt(s[0]?.mbPerRun)} MB or more of SSE per run)`);
		line();
		line("Recorded captures lengthened into long valid streams (text and thinking: each run of delta events repeated in place; tool calls: the tool-call span repeated with new indexes and ids up to 64 parallel calls per reply, and the request repeated), replayed with no delay by one replay-server process in 4–16 KB chunks. Events/s counts SSE events on the wire per wall second; CPU is `process.cpuUsage()` of the library's own process.");
		line();
		line("| API | class (capture) | events/s ours | events/s reference | ratio | CPU ms/MB ours | CPU ms/MB reference | ratio |");
		line("| --- | --- | --- | --- | --- | --- | --- | --- |");
		for (const row of s) {
			line(
				`| ${row.api} | ${row.cls} (${row.fixture}${row.toolCallsPerReply ? `, ${row.toolCallsPerReply} calls × ${row.requestsPerRun} requests` : ""}) | ${fmtSummary(row.ours.eventsPerSec)} | ${fmtSummary(row.ref.eventsPerSec)} | ${fmtRatio(advantage(row.ours.eventsPerSec.median, row.ref.eventsPerSec.median, "higher"))} | ${fmtSummary(row.ours.cpuMsPerMB)} | ${fmtSummary(row.ref.cpuMsPerMB)} | ${fmtRatio(advantage(row.ours.cpuMsPerMB.median, row.ref.cpuMsPerMB.median, "lower"))} |`,
			);
		}
		const differences = s.filter((/** @type {any} */ row) => JSON.stringify(row.ours.lastMessage) !== JSON.stringify(row.ref.lastMessage));
		if (differences.length > 0) {
			line();
			line("Decoded results that differ between the libraries (characters of text / thinking, tool calls):");
			line();
			for (const row of differences) {
				const d = (/** @type {any} */ m) => `${m.text} / ${m.thinking}, ${m.toolCalls} calls`;
				line(`- ${row.api} ${row.cls}: ours ${d(row.ours.lastMessage)}; reference ${d(row.ref.lastMessage)}`);
			}
		}
		line();
	}
	if (r.largeArgs) {
		const l = r.largeArgs;
		line("## 4. Large tool-call arguments");
		line();
		line("One tool call whose arguments are realistic JSON (a write-files call: nested objects, source text with quotes, backslashes, tabs, accents, CJK and emoji), streamed in 20-character deltas as a Chat Completions stream through the replay server. Time from `stream()` to the final message, arguments checked equal to `JSON.parse` of the text.");
		line();
		line("| arguments | deltas | ours (ms) | reference (ms) | ratio | ours CPU (ms) | floor CPU (ms) | ours ÷ floor |");
		line("| --- | --- | --- | --- | --- | --- | --- | --- |");
		for (const row of l.rows) {
			const floor = row.floorCpu ? `${fmtSummary(row.oursCpu)} | ${fmtSummary(row.floorCpu)} | ${fmtRatio(row.oursCpu.median / row.floorCpu.median)}` : "– | – | –";
			line(`| ${fmt(row.argsBytes / 1000)} KB (${fmt(row.argsChars)} chars) | ${fmt(row.deltas)} | ${fmtSummary(row.ours)} | ${row.ref ? `${fmtSummary(row.ref)}${row.ref.runs < row.ours.runs ? ` — ${row.ref.runs} run${row.ref.runs > 1 ? "s" : ""}` : ""}` : "not measured (quadratic)"} | ${row.ref ? fmtRatio(advantage(row.ours.median, row.ref.median, "lower")) : "–"} | ${floor} |`);
		}
		line();
		line("The floor is `eventsource-parser` plus one `JSON.parse` per event on the same stream (as in section 9); it leaves the argument text unparsed, which a library cannot.");
		line();
		line(`Growth for 10× the data: ours 10 KB → 100 KB ${fmt(l.oursGrowth10kTo100k)}×, 100 KB → 1 MB ${fmt(l.oursGrowth100kTo1M)}×; reference 10 KB → 100 KB ${fmt(l.refGrowth10kTo100k)}×.`);
		line();
		line("Our `StreamingJsonParser` alone (no HTTP, no SSE), 20-character deltas, against one `JSON.parse` of the whole text:");
		line();
		line("| JSON | streaming parser (ms) | JSON.parse (ms) | factor |");
		line("| --- | --- | --- | --- |");
		for (const [label, entry] of [["1 MB", l.parser.oneMB], ["10 MB", l.parser.tenMB]]) {
			line(`| ${label} (${fmt(entry.chars)} chars) | ${fmtSummary(entry.streaming)} | ${fmtSummary(entry.jsonParse)} | ${fmt(entry.streaming.median / entry.jsonParse.median)}× |`);
		}
		line();
		line(`10× the data costs the streaming parser ${fmt(l.parserGrowth1MTo10M)}× the time.`);
		line();
	}
	if (r.memory) {
		const m = r.memory;
		line(`## 5. Memory (${m.ours.peakRssMB.runs} runs for ours, ${m.ref.peakRssMB.runs} for the reference, one fresh process each)`);
		line();
		line(`One ${fmt(m.replyMB)} MB text reply (${m.api}, ${fmt(m.events)} SSE events). Peak RSS from the kernel (\`maxRSS\`), peak heap sampled every 256 events; "after import" is the process right before the request.`);
		line();
		line("| | ours | reference | ratio |");
		line("| --- | --- | --- | --- |");
		line(`| peak RSS (MB) | ${fmtSummary(m.ours.peakRssMB)} | ${fmtSummary(m.ref.peakRssMB)} | ${fmtRatio(advantage(m.ours.peakRssMB.median, m.ref.peakRssMB.median, "lower"))} |`);
		line(`| peak heap used (MB) | ${fmtSummary(m.ours.peakHeapMB)} | ${fmtSummary(m.ref.peakHeapMB)} | ${fmtRatio(advantage(m.ours.peakHeapMB.median, m.ref.peakHeapMB.median, "lower"))} |`);
		line(`| RSS after import (MB) | ${fmtSummary(m.ours.baselineRssMB)} | ${fmtSummary(m.ref.baselineRssMB)} | ${fmtRatio(advantage(m.ours.baselineRssMB.median, m.ref.baselineRssMB.median, "lower"))} |`);
		line(`| heap after import (MB) | ${fmtSummary(m.ours.baselineHeapMB)} | ${fmtSummary(m.ref.baselineHeapMB)} | ${fmtRatio(advantage(m.ours.baselineHeapMB.median, m.ref.baselineHeapMB.median, "lower"))} |`);
		line();
	}
	if (r.agentLoop) {
		const a = r.agentLoop;
		line("## 6. Agent loop overhead");
		line();
		line(`${fmt(a.rows[0]?.turns)} turns of (one tool call → its result → the next call) through \`agentLoop\` with each library's own faux provider (zero latency, deltas of 12–20 characters for both), after N earlier messages. Both faux providers estimate usage from the whole context on every call, so part of the growth is the faux provider's, not the loop's.`);
		line();
		line("| earlier messages | ours (ms/turn) | reference (ms/turn) | ratio | ours CPU ms/turn | reference CPU ms/turn |");
		line("| --- | --- | --- | --- | --- | --- |");
		for (const row of a.rows) {
			line(`| ${fmt(row.earlier)} | ${fmtSummary(row.ours.msPerTurn)} | ${fmtSummary(row.ref.msPerTurn)}${row.ref.msPerTurn.runs < row.ours.msPerTurn.runs ? ` — ${row.ref.msPerTurn.runs} runs` : ""} | ${fmtRatio(advantage(row.ours.msPerTurn.median, row.ref.msPerTurn.median, "lower"))} | ${fmtSummary(row.ours.cpuMsPerTurn)} | ${fmtSummary(row.ref.cpuMsPerTurn)} |`);
		}
		line();
		line(`Growth from ${fmt(a.rows[0]?.earlier)} to ${fmt(a.rows[a.rows.length - 1]?.earlier)} earlier messages: ours ${fmt(a.oursGrowth)}×, reference ${fmt(a.refGrowth)}×.`);
		line();
	}
	if (r.cliStart) {
		const c = r.cliStart;
		line(`## 8. CLI start-up (${c.help.runs} rounds)`);
		line();
		line("Wall time of the built `pi-ai` (`node packages/cli/dist/bin.js …`, as the installed binary runs) minus a bare `node -e 0` started right before it, with an empty config folder and output to a pipe. `--help` loads only the dispatcher and the help text; `models` loads `@pi/ai` and its catalog and prints all of it. There is no reference CLI to compare with.");
		line();
		line("| command | wall ms over bare node | CPU ms over bare node |");
		line("| --- | --- | --- |");
		line(`| \`pi-ai --help\` | ${fmtSummary(c.help)} | ${fmtSummary(c.helpCpu)} |`);
		line(`| \`pi-ai models\` | ${fmtSummary(c.models)} | ${fmtSummary(c.modelsCpu)} |`);
		if (c.importAi) line(`| for scale: \`import "@pi/ai"\` alone | ${fmtSummary(c.importAi)} | ${fmtSummary(c.importAiCpu)} |`);
		line(`| bare node itself | ${fmtSummary(c.bareNodeMs)} | ${fmtSummary(c.bareNodeCpuMs)} |`);
		line();
	}
	if (r.cassetteReplay) {
		const c = r.cassetteReplay;
		line(`## 7. Cassette replay (${c.plain.cpuMs.runs} rounds each, alternating)`);
		line();
		line(`Each round serves all ${c.captures} recorded captures (${fmt(c.mb)} MB) once, in 4–16 KB seeded chunks, to a fetch client in the same process that reads every body to its end: from a cassette (\`startReplayServer({ cassette })\`: reads the folder, matches each request by method, path and normalised body) and, for comparison, the same bytes enqueued as scripted responses on the plain replay server. Ours only: the reference has no cassettes.`);
		line();
		line("| | plain replay server | cassette | cassette / plain |");
		line("| --- | --- | --- | --- |");
		line(`| wall ms per round | ${fmtSummary(c.plain.wallMs)} | ${fmtSummary(c.cassette.wallMs)} | ${fmt(c.cassette.wallMs.median / c.plain.wallMs.median)}× |`);
		line(`| CPU ms per round | ${fmtSummary(c.plain.cpuMs)} | ${fmtSummary(c.cassette.cpuMs)} | ${fmt(c.cassette.cpuMs.median / c.plain.cpuMs.median)}× |`);
		line();
	}
	if (r.typeCheck) {
		const t = r.typeCheck;
		line("## 8. Type-check cost");
		line();
		line(`\`tsc --extendedDiagnostics\` (TypeScript 5.9, strict, NodeNext) of an app with ${t.tools} typed tools (\`AgentTool<typeof params>\` over typebox objects) in \`new Agent({ initialState: { model, tools } })\` and ${t.modelLookups} \`getModel\` lookups by literal id, the same source against each library (their published declarations). "typebox only" is the same schemas with no pi library: the floor typebox's own declarations cost. Instantiations are deterministic; check times are noisy on this shared machine.`);
		line();
		line("| skipLibCheck | instantiations ours | instantiations reference | ratio | check s ours | check s reference | ratio | typebox only (instantiations, check s) |");
		line("| --- | --- | --- | --- | --- | --- | --- | --- |");
		for (const row of t.rows) {
			line(
				`| ${row.skipLibCheck} | ${fmt(row.ours.instantiations)} | ${fmt(row.ref.instantiations)} | ${fmtRatio(advantage(row.ours.instantiations, row.ref.instantiations, "lower"))} | ${fmtSummary(row.ours.checkSeconds)} | ${fmtSummary(row.ref.checkSeconds)} | ${fmtRatio(advantage(row.ours.checkSeconds.median, row.ref.checkSeconds.median, "lower"))} | ${fmt(row.typeboxOnly.instantiations)}, ${fmtSummary(row.typeboxOnly.checkSeconds)} |`,
			);
		}
		const withErrors = t.rows.filter((/** @type {any} */ row) => row.ref.declarationErrors > 0);
		if (withErrors.length > 0) line(`\nWithout skipLibCheck, tsc reports ${withErrors[0].ref.declarationErrors} errors in the reference's dependencies' declarations (vendor SDK types it cannot resolve); its figures count anyway.`);
		line();
	}
	if (r.compaction) {
		const c = r.compaction;
		line(`## 7. Compaction (${c.rows[0]?.estimate.runs} runs, ours only)`);
		line();
		line("`estimateContextTokens` with no usage in the transcript (every message estimated: its worst case) and `findCutPoint` keeping 20,000 tokens, on transcripts of user turns, replies with one to three tool calls, tool results of 200 to 4,000 characters and an image now and then. Each sample times ten transcripts of 1,000 messages or one of 10,000 (the same memory traffic) and gives the time per call; neither function caches anything between calls. The goal is judged on CPU time (user + system of the process), which a loaded machine disturbs less than wall time. The reference has no compaction in its agent core, so there is nothing to compare with.");
		line();
		line("| messages | estimated tokens | estimateContextTokens CPU ms | findCutPoint CPU ms | estimateContextTokens wall ms | findCutPoint wall ms | first kept index |");
		line("| --- | --- | --- | --- | --- | --- | --- |");
		for (const row of c.rows) line(`| ${fmt(row.messages)} | ${fmt(row.tokens)} | ${fmtSummary(row.estimateCpu)} | ${fmtSummary(row.cutCpu)} | ${fmtSummary(row.estimate)} | ${fmtSummary(row.cut)} | ${fmt(row.firstKeptIndex)} |`);
		line();
		line(`Growth from 1,000 to 10,000 messages (CPU time): estimate ${fmt(c.estimateGrowth1kTo10k)}×, findCutPoint ${fmt(c.cutGrowth1kTo10k)}×.`);
		line();
	}
	if (r.peers) {
		renderPeers(r.peers, line);
		renderPeerRepeats(r.peers, line);
	}
	if (r.notes?.length) {
		line("## Notes");
		line();
		for (const note of r.notes) line(`- ${note}`);
		line();
	}
	if (r.errors?.length) {
		line("## Measurements that failed in this run");
		line();
		for (const error of r.errors) line(`- ${error}`);
		line();
	}
	return out.join("\n");
}
