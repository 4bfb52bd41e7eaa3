/**
 * The markdown of section 9 (peers and the decoding floor, issue 16). Ratios: "ours ÷ floor" is
 * our cost over the floor's (1 is the floor itself; the goal is ≤ 1.5); "fastest peer ÷ ours" is
 * the cheapest complete peer's cost over ours, so above 1 favours ours. A peer that did not decode
 * all the content is shown with what it dropped and never counts as the fastest.
 */
import { PEERS, RIVALS } from "./peers.js";
import { fmt, fmtRatio, fmtSummary, summarize } from "./stats.js";

/**
 * The cheapest complete rival of a row by `metric` (lower is better unless `higher`).
 * @param {Record<string, any>} sides
 * @param {string} metric
 * @param {boolean} higher
 */
export function fastestRival(sides, metric, higher) {
	let best;
	for (const side of RIVALS) {
		const entry = sides[side];
		if (!entry?.[metric] || entry.missing?.length) continue;
		if (!best || (higher ? entry[metric].median > best.value : entry[metric].median < best.value)) best = { side, value: entry[metric].median };
	}
	return best;
}

/**
 * Ours ÷ floor of a streaming row: the median of the back-to-back pairs' ratios (see
 * sections/peers.js), or, for results written before the pairs, the ratio of the two medians.
 * @param {any} row
 * @returns {number}
 */
export function oursOverFloor(row) {
	return row.oursOverFloor?.median ?? row.sides.ours?.cpuMsPerMB?.median / row.sides.floor?.cpuMsPerMB?.median;
}

/** The paired ratio with its interquartile range, "1.21× (1.08–1.34)". @param {any} row */
function fmtOverFloor(row) {
	const summary = row.oursOverFloor;
	if (!summary?.samples?.length) return fmtRatio(oursOverFloor(row));
	const sorted = [...summary.samples].sort((a, b) => a - b);
	const at = (/** @type {number} */ q) => sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))];
	return `${fmtRatio(summary.median)} (${fmt(at(0.25))}–${fmt(at(0.75))})`;
}

/** @param {any} entry */
const cell = (entry, /** @type {string} */ metric) => {
	if (!entry) return "–";
	if (!entry[metric]) return `failed: ${String(entry.failed ?? "").slice(0, 80)}`;
	const drops = entry.missing?.length ? ` **drops data** (${entry.missing.join(", ")})` : entry.replacedByDone?.length ? " (keeps the `*.done` copy†)" : "";
	return `${fmtSummary(entry[metric])}${drops}`;
};

/**
 * @param {any} p results.peers
 * @param {(text?: string) => void} line
 */
export function renderPeers(p, line) {
	line(`## 9. Peers and the decoding floor (${p.rounds} rounds per cell, rotating order; machine load ${fmtSummary(p.load)})`);
	line();
	line(`Each side in a worker process of its own, on the same lengthened captures as section 3 (runs sized so that the floor spends about ${p.runCpuMs ?? 0} ms of CPU on each, at least ${fmt(p.bytesPerRun / 1e6)} MB, in replies of at most 4 MB repeated over several requests; the MB/run column gives the size, the same for every side of a row; after a warm-up per side and cell of at least ${p.warmupRuns ?? 1} runs of ${fmt((p.warmupBytes ?? 0) / 1e6)} MB, continued until two consecutive runs cost within 15 % of each other (at most 12; the last column gives how many each side took), then one untimed run at the measured size, so that the figures are steady-state throughput rather than V8 still compiling; no forced \`gc()\` between runs, since node's is V8's memory-reducing collection, which left every side partly de-optimised for its next run) from one replay server process: ours, ${RIVALS.map((s) => PEERS[/** @type {keyof typeof PEERS} */ (s)].label).join(", ")}, and the floor (\`eventsource-parser\` plus one \`JSON.parse\` per event, no content built). pi-ai 1.6.0 is driven through its \`/compat\` entry (\`stream(model, context, { apiKey })\`, as 0.73.1); the AI SDK through \`streamText\` with \`createOpenAI().chat\` / \`.responses\`, \`createAnthropic\` and \`createGoogleGenerativeAI\`, reading \`fullStream\`. Content check: every library's last reply must hold the text, thinking and tool-argument characters (within 1 %) and tool calls ours holds (ours is held to the captures by the conformance suites); one that does not is marked **drops data** and is not counted as the fastest peer. Load is \`os.loadavg()[0]\` sampled before every run (median with min–max). Compare ratios within a row, not absolute values; the load column says how quiet the machine was.`);
	line();
	line(`CPU ms per MB of SSE (lower is better). "Ours ÷ floor" is not the ratio of the two columns beside it: it is the median ratio of ${p.floorPairs ?? "–"} back-to-back pairs of runs of ours and the floor alone, the order alternating, with the interquartile range of the pairs (the CPU cost of one and the same run moves by 2× over seconds on this machine, and the rotated rounds put seconds between ours and the floor).`);
	line();
	line(`| API | class | ours | ${RIVALS.map((s) => PEERS[/** @type {keyof typeof PEERS} */ (s)].label).join(" | ")} | floor | ours ÷ floor | fastest peer ÷ ours | MB/run | load | warm-up runs (ours, ${RIVALS.map((s) => PEERS[/** @type {keyof typeof PEERS} */ (s)].label).join(", ")}, floor) |`);
	line(`| --- | --- | --- | ${RIVALS.map(() => "---").join(" | ")} | --- | --- | --- | --- | --- | --- |`);
	for (const row of p.streaming) {
		const ours = row.sides.ours?.cpuMsPerMB?.median;
		const best = fastestRival(row.sides, "cpuMsPerMB", false);
		line(`| ${row.api} | ${row.cls} | ${cell(row.sides.ours, "cpuMsPerMB")} | ${RIVALS.map((s) => cell(row.sides[s], "cpuMsPerMB")).join(" | ")} | ${cell(row.sides.floor, "cpuMsPerMB")} | ${fmtOverFloor(row)} | ${best ? `${fmtRatio(best.value / ours)} (${PEERS[/** @type {keyof typeof PEERS} */ (best.side)].label})` : "–"} | ${fmt(row.mbPerRun)} | ${fmtSummary(row.load)} | ${row.warmupRuns ? ["ours", ...RIVALS, "floor"].map((side) => row.warmupRuns[side] ?? "–").join(", ") : "–"} |`);
	}
	line();
	line("† pi-ai (0.73.1 and 1.6.0) replaces streamed Responses text and reasoning with the `*.done` events' copies; on a lengthened body that copy is the capture's shorter original, so its final text is shorter. On a real reply both are equal: not counted as dropped data.");
	line();
	line(`Events per second (wire events, wall clock; higher is better):`);
	line();
	line(`| API | class | ours | ${RIVALS.map((s) => PEERS[/** @type {keyof typeof PEERS} */ (s)].label).join(" | ")} | floor | ours ÷ fastest peer |`);
	line(`| --- | --- | --- | ${RIVALS.map(() => "---").join(" | ")} | --- | --- |`);
	for (const row of p.streaming) {
		const best = fastestRival(row.sides, "eventsPerSec", true);
		line(`| ${row.api} | ${row.cls} | ${cell(row.sides.ours, "eventsPerSec")} | ${RIVALS.map((s) => cell(row.sides[s], "eventsPerSec")).join(" | ")} | ${cell(row.sides.floor, "eventsPerSec")} | ${best ? fmtRatio(row.sides.ours.eventsPerSec.median / best.value) : "–"} |`);
	}
	line();
	line(`### Requests per second, short replies (${p.shortRequests} requests per run)`);
	line();
	line("One text delta (text-basic with each run of text deltas cut to its first event) or one tool call (the single-call capture of each API), repeated over one keep-alive connection or with the server closing the connection after each reply (`connection: close`, so each request opens a new one). Measures the fixed cost per request. Requests/s on the wall clock; CPU ms per request of the library's process.");
	line();
	line(`| API | reply | connection | ours req/s | ${RIVALS.map((s) => `${PEERS[/** @type {keyof typeof PEERS} */ (s)].label} req/s`).join(" | ")} | floor req/s | ours ÷ fastest peer | ours CPU ms/req | fastest peer CPU ÷ ours | load |`);
	line(`| --- | --- | --- | --- | ${RIVALS.map(() => "---").join(" | ")} | --- | --- | --- | --- | --- |`);
	for (const row of p.requests) {
		const best = fastestRival(row.sides, "requestsPerSec", true);
		const bestCpu = fastestRival(row.sides, "cpuMsPerRequest", false);
		const ours = row.sides.ours;
		line(`| ${row.api} | ${row.kind} | ${row.connection} | ${cell(ours, "requestsPerSec")} | ${RIVALS.map((s) => cell(row.sides[s], "requestsPerSec")).join(" | ")} | ${cell(row.sides.floor, "requestsPerSec")} | ${best && ours?.requestsPerSec ? fmtRatio(ours.requestsPerSec.median / best.value) : "–"} | ${cell(ours, "cpuMsPerRequest")} | ${bestCpu && ours?.cpuMsPerRequest ? fmtRatio(bestCpu.value / ours.cpuMsPerRequest.median) : "–"} | ${fmtSummary(row.load)} |`);
	}
	line();
}

/**
 * The ratios of one run of section 9, per cell and per requests row: what the spread over repeated
 * runs (`--peer-runs=N`) is taken of.
 * @param {any} p one run's results.peers
 */
export function peerRatios(p) {
	return {
		load: p.load.median,
		streaming: p.streaming.map((/** @type {any} */ row) => {
			const ours = row.sides.ours?.cpuMsPerMB?.median;
			const best = fastestRival(row.sides, "cpuMsPerMB", false);
			return { api: row.api, cls: row.cls, oursOverFloor: oursOverFloor(row), fastestOverOurs: best ? best.value / ours : null };
		}),
		requests: p.requests.map((/** @type {any} */ row) => {
			const best = fastestRival(row.sides, "requestsPerSec", true);
			return { api: row.api, kind: row.kind, connection: row.connection, oursOverFastest: best ? row.sides.ours?.requestsPerSec?.median / best.value : null };
		}),
	};
}

/**
 * The spread of section 9's ratios over repeated runs of the whole section.
 * @param {any} p results.peers, with `repeats` (one {@link peerRatios} per run)
 * @param {(text?: string) => void} line
 */
export function renderPeerRepeats(p, line) {
	const runs = p.repeats ?? [];
	if (runs.length < 2) return;
	const spread = (/** @type {(number | null)[]} */ values) => {
		const finite = /** @type {number[]} */ (values.filter((v) => v !== null && Number.isFinite(v)));
		return finite.length ? fmtSummary(summarize(finite)) : "–";
	};
	line(`### The same section run ${runs.length} times`);
	line();
	line(`Each run is the whole section above, from fresh worker processes; the tables above are the first run. Median of the runs' ratios, with their min–max. Machine load per run: ${runs.map((/** @type {any} */ r) => fmt(r.load)).join(", ")}.`);
	line();
	line("| API | class | ours ÷ floor | fastest peer ÷ ours |");
	line("| --- | --- | --- | --- |");
	runs[0].streaming.forEach((/** @type {any} */ row, /** @type {number} */ i) => {
		line(`| ${row.api} | ${row.cls} | ${spread(runs.map((/** @type {any} */ r) => r.streaming[i]?.oursOverFloor))} | ${spread(runs.map((/** @type {any} */ r) => r.streaming[i]?.fastestOverOurs))} |`);
	});
	line();
	line("| API | reply | connection | ours req/s ÷ fastest peer |");
	line("| --- | --- | --- | --- |");
	runs[0].requests.forEach((/** @type {any} */ row, /** @type {number} */ i) => {
		line(`| ${row.api} | ${row.kind} | ${row.connection} | ${spread(runs.map((/** @type {any} */ r) => r.requests[i]?.oursOverFastest))} |`);
	});
	line();
}

/**
 * The goals of issue 16 judged on section 9's medians.
 * @param {any} p results.peers
 * @returns {{ goal: string, figure: string, met: boolean | null }[]}
 */
export function peerGoals(p) {
	const overFloor = [];
	const behindPeer = [];
	let worstFloor = 0;
	for (const row of p.streaming) {
		const ours = row.sides.ours?.cpuMsPerMB?.median;
		const ratio = oursOverFloor(row);
		if (ratio > worstFloor) worstFloor = ratio;
		if (!(ratio <= 1.5)) overFloor.push(`${row.api} ${row.cls} ${fmtRatio(ratio)}`);
		const best = fastestRival(row.sides, "cpuMsPerMB", false);
		if (best && !(best.value > ours)) behindPeer.push(`${row.api} ${row.cls} (${PEERS[/** @type {keyof typeof PEERS} */ (best.side)].label} ${fmtRatio(best.value / ours)})`);
	}
	const slower = [];
	for (const row of p.requests) {
		const best = fastestRival(row.sides, "requestsPerSec", true);
		const ours = row.sides.ours?.requestsPerSec?.median;
		if (best && !(ours >= best.value)) slower.push(`${row.api} ${row.kind} ${row.connection} (${fmtRatio(ours / best.value)} of ${PEERS[/** @type {keyof typeof PEERS} */ (best.side)].label})`);
	}
	return [
		{ goal: "Peers: streaming CPU per MB ≤1.5× the floor on every cell (section 9)", figure: overFloor.length ? `above 1.5×: ${overFloor.join("; ")}` : `worst ${fmtRatio(worstFloor)}`, met: overFloor.length === 0 },
		{ goal: "Peers: streaming CPU per MB lower than every complete peer on every cell", figure: behindPeer.length ? `not ahead: ${behindPeer.join("; ")}` : "ahead on every cell", met: behindPeer.length === 0 },
		{ goal: "Peers: short-reply requests/s ≥ every complete peer (keep-alive and new connections)", figure: slower.length ? `behind: ${slower.join("; ")}` : "ahead or equal on every row", met: slower.length === 0 },
	];
}
