/**
 * `pnpm --filter @pi/bench accuracy`: prints the estimator-accuracy tables of docs/compaction.md,
 * measured by packages/agent/test/compaction/estimator-accuracy.ts (the test there asserts the
 * bounds; this prints the figures). Runs from source (`tsx --conditions=development`).
 */
import { startReplayServer } from "@pi/ai/testing";
import { measureCaptures, measureGenerated, spread } from "../../packages/agent/test/compaction/estimator-accuracy.js";

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const signed = (value: number) => `${value >= 0 ? "+" : ""}${(value * 100).toFixed(1)}%`;

const lines: string[] = [];
lines.push("Generated sessions (20 sessions × 12 turns per language; truth: o200k tokens + 4 per message):", "");
lines.push("| text | calls | with usage: median | p95 | max | mean | without usage: median | p95 |");
lines.push("| --- | --- | --- | --- | --- | --- | --- | --- |");
for (const language of ["english", "cjk"] as const) {
	const errors = measureGenerated(language);
	const withUsage = spread(errors.withUsage);
	const without = spread(errors.withoutUsage);
	const label = language === "english" ? "English docs, TypeScript, JSON" : "Chinese prose, TypeScript, JSON";
	lines.push(`| ${label} | ${withUsage.count} | ${percent(withUsage.median)} | ${percent(withUsage.p95)} | ${percent(withUsage.max)} | ${signed(withUsage.mean)} | ${percent(without.median)} | ${percent(without.p95)} |`);
}
lines.push("", "Recorded replies (estimate of the reply's content against its reported output tokens):", "");
lines.push("| capture | estimated | reported | error |");
lines.push("| --- | --- | --- | --- |");
const server = await startReplayServer();
try {
	const rows = await measureCaptures(server);
	for (const row of rows) lines.push(`| ${row.api}/${row.name} | ${row.estimated} | ${row.reported} | ${row.error === undefined ? `not comparable: ${row.note}` : signed(row.error)} |`);
	const comparable = rows.filter((row) => row.error !== undefined);
	const estimated = comparable.reduce((sum, row) => sum + row.estimated, 0);
	const reported = comparable.reduce((sum, row) => sum + row.reported, 0);
	lines.push(`| **all ${comparable.length} comparable** | ${estimated} | ${reported} | ${signed((estimated - reported) / reported)} |`);
} finally {
	await server.close();
}
console.log(lines.join("\n"));
