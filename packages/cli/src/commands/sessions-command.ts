/**
 * `pi-ai sessions [--limit N] [--json]`: past conversations, newest first, summarised by
 * `listSessionFiles` of `@pi/agent-core/node` (read without the lock, so a conversation being
 * written by another pi-ai is listed too).
 */
import { listSessionFiles, type SessionFileInfo } from "@pi/agent-core/node";
import { CliError, EXIT_OK } from "../cli-error.js";
import { parseArguments } from "../parse-arguments.js";
import { sessionsDir } from "../session-files.js";
import { recordedBaseUrl } from "../session-summary.js";
import { escapeControlCharacters } from "../terminal/escape-control-characters.js";
import { createStyle } from "../terminal/style.js";
import { formatTable } from "../terminal/table.js";
import { formatCost } from "../usage-summary.js";

const DEFAULT_LIMIT = 20;
const FIRST_LINE_CHARS = 60;

/** One row of `pi-ai sessions --json`. */
export interface SessionRow {
	id: string;
	path: string;
	/** ISO 8601 */
	created: string;
	updated: string;
	/** `provider/id`, or `null` before the first reply. */
	model: string | null;
	/** Where the model was called, when that is not the catalog's own URL for it (`--base-url`, an added model). */
	baseUrl: string | null;
	firstLine: string;
	messages: number;
	/** US dollars. */
	cost: number;
}

/** `provider/id` of a summary's model. */
export function modelLabel(info: SessionFileInfo): string | null {
	return info.model ? `${info.model.provider}/${info.model.modelId}` : null;
}

/** Runs `pi-ai sessions`; resolves to the exit code. */
export async function sessionsCommand(argv: string[]): Promise<number> {
	const { values, positionals } = parseArguments(argv, { json: { type: "boolean" }, limit: { type: "string", short: "n" } }, "pi-ai sessions");
	if (positionals.length > 0) throw new CliError(`pi-ai sessions takes no arguments (pi-ai show ${positionals[0]} prints one)`);
	const limit = values.limit === undefined ? DEFAULT_LIMIT : Number(values.limit);
	if (!Number.isInteger(limit) || limit < 0) throw new CliError(`--limit ${values.limit}: expected a whole number (0 for all)`);

	const listings = await listSessionFiles(sessionsDir());
	// A file without messages is a prompt that never ran (it failed before it was sent).
	const infos = listings.flatMap(({ info }) => (info && info.messageCount > 0 ? [info] : [])).slice(0, limit === 0 ? undefined : limit);
	const rows: SessionRow[] = [];
	for (const info of infos) {
		rows.push({
			id: info.id,
			path: info.path,
			created: new Date(info.createdAt).toISOString(),
			updated: new Date(info.updatedAt).toISOString(),
			model: modelLabel(info),
			baseUrl: (await recordedBaseUrl(info.path)) ?? null,
			firstLine: info.firstLine ?? "",
			messages: info.messageCount,
			cost: info.cost,
		});
	}

	if (values.json) {
		process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
	} else if (rows.length === 0) {
		process.stderr.write(`No conversations yet in ${sessionsDir()}.\n`);
	} else {
		const style = createStyle(process.stdout);
		// A session file's text is not ours: no control character of it reaches the terminal.
		const cells = rows.map((row) => [
			escapeControlCharacters(row.id),
			formatDate(Date.parse(row.updated)),
			escapeControlCharacters(`${row.model ?? "-"}${row.baseUrl ? ` at ${row.baseUrl}` : ""}`),
			formatCost(row.cost),
			escapeControlCharacters(clip(row.firstLine)),
		]);
		const [header = "", ...lines] = formatTable(["ID", "DATE", "MODEL", "COST", "FIRST LINE"], cells, { alignRight: [3] });
		process.stdout.write(`${style.bold(header)}\n${lines.join("\n")}\n`);
	}
	// Broken files are named, never skipped silently.
	for (const { path, error } of listings) if (error) process.stderr.write(`pi-ai: cannot read ${path}: ${escapeControlCharacters(error.message)}\n`);
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
