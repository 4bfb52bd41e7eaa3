/**
 * `pi-ai sessions [--limit N] [--json]`: past conversations, newest first.
 */
import { CliError, EXIT_OK } from "../cli-error.js";
import { parseArguments } from "../parse-arguments.js";
import { listSessionFiles, sessionsDir } from "../session-files.js";
import { openForReading, type SessionSummary, summarise } from "../session-summary.js";
import { createStyle } from "../terminal/style.js";
import { formatTable } from "../terminal/table.js";
import { formatCost } from "../usage-summary.js";

const DEFAULT_LIMIT = 20;
const FIRST_LINE_CHARS = 60;

/** Runs `pi-ai sessions`; resolves to the exit code. */
export async function sessionsCommand(argv: string[]): Promise<number> {
	const { values, positionals } = parseArguments(argv, { json: { type: "boolean" }, limit: { type: "string", short: "n" } }, "pi-ai sessions");
	if (positionals.length > 0) throw new CliError(`pi-ai sessions takes no arguments (pi-ai show ${positionals[0]} prints one)`);
	const limit = values.limit === undefined ? DEFAULT_LIMIT : Number(values.limit);
	if (!Number.isInteger(limit) || limit < 0) throw new CliError(`--limit ${values.limit}: expected a whole number (0 for all)`);

	const summaries: SessionSummary[] = [];
	const problems: string[] = [];
	for (const file of listSessionFiles()) {
		if (limit > 0 && summaries.length >= limit) break;
		try {
			const session = await openForReading(file.path);
			try {
				const summary = summarise(file.id, file.path, file.modifiedMs, await session.entries());
				// A file with no message is a prompt that never ran (it failed before sending).
				if (summary.messages > 0) summaries.push(summary);
			} finally {
				await session.close();
			}
		} catch (error) {
			problems.push(`${file.path}: ${(error as Error).message}`);
		}
	}

	if (values.json) {
		process.stdout.write(`${JSON.stringify(summaries, null, 2)}\n`);
	} else if (summaries.length === 0) {
		process.stderr.write(`No conversations yet in ${sessionsDir()}.\n`);
	} else {
		const style = createStyle(process.stdout);
		const rows = summaries.map((summary) => [summary.id, formatDate(summary.modifiedMs), summary.model ?? "-", formatCost(summary.cost), clip(summary.firstLine)]);
		const [header = "", ...lines] = formatTable(["ID", "DATE", "MODEL", "COST", "FIRST LINE"], rows, { alignRight: [3] });
		process.stdout.write(`${style.bold(header)}\n${lines.join("\n")}\n`);
	}
	for (const problem of problems) process.stderr.write(`pi-ai: skipped ${problem}\n`);
	return EXIT_OK;
}

/** Local date and time to the minute, e.g. `2026-12-01 21:05`. */
export function formatDate(ms: number): string {
	const date = new Date(ms);
	const pad = (value: number) => String(value).padStart(2, "0");
	return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function clip(text: string): string {
	return text.length > FIRST_LINE_CHARS ? `${text.slice(0, FIRST_LINE_CHARS - 1)}…` : text;
}
