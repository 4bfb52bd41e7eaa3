/**
 * `pi-ai models [filter] [--json]` and `pi-ai models default [SPEC]`.
 */
import { getModels, getProviders } from "@pi/ai";
import { CliError, EXIT_OK, EXIT_REPLY_ERROR } from "../cli-error.js";
import { configuredModel, writeDefaultModel } from "../config.js";
import { readStoredKeys, resolveApiKey } from "../key-store.js";
import { findCatalogModel, parseModelSpec, unknownModelError } from "../model-spec.js";
import { parseArguments } from "../parse-arguments.js";
import { createStyle } from "../terminal/style.js";
import { formatTable } from "../terminal/table.js";

/** One row of `pi-ai models --json`. */
export interface ModelRow {
	provider: string;
	id: string;
	name: string;
	api: string;
	contextWindow: number;
	maxTokens: number;
	/** US dollars per million tokens. */
	inputPrice: number;
	outputPrice: number;
	cacheReadPrice: number;
	cacheWritePrice: number;
	reasoning: boolean;
	images: boolean;
	/** A key for the provider is in the environment or the keys file. */
	keySet: boolean;
	keySource: "env" | "file" | null;
}

/** Runs `pi-ai models …`; resolves to the exit code. */
export async function modelsCommand(argv: string[]): Promise<number> {
	const { values, positionals } = parseArguments(argv, { json: { type: "boolean" } }, "pi-ai models");
	if (positionals[0] === "default") return defaultModel(positionals.slice(1));
	if (positionals.length > 1) throw new CliError(`pi-ai models takes one filter, got ${positionals.length} (quote a filter with spaces)`);
	const filter = (positionals[0] ?? "").toLowerCase();
	const stored = readStoredKeys();
	const rows: ModelRow[] = [];
	for (const provider of getProviders()) {
		const { source } = resolveApiKey(provider, stored);
		for (const model of getModels(provider)) {
			if (filter && !`${provider}/${model.id}`.toLowerCase().includes(filter) && !model.name.toLowerCase().includes(filter)) continue;
			rows.push({
				provider,
				id: model.id,
				name: model.name,
				api: model.api,
				contextWindow: model.contextWindow,
				maxTokens: model.maxTokens,
				inputPrice: model.cost.input,
				outputPrice: model.cost.output,
				cacheReadPrice: model.cost.cacheRead,
				cacheWritePrice: model.cost.cacheWrite,
				reasoning: model.reasoning,
				images: model.input.includes("image"),
				keySet: source !== undefined,
				keySource: source ?? null,
			});
		}
	}
	if (values.json) {
		process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
		return rows.length > 0 ? EXIT_OK : EXIT_REPLY_ERROR;
	}
	if (rows.length === 0) {
		process.stderr.write(`pi-ai: no model matches "${positionals[0]}"; pi-ai models lists them all\n`);
		return EXIT_REPLY_ERROR;
	}
	const style = createStyle(process.stdout);
	const table = formatTable(
		["PROVIDER", "MODEL", "CONTEXT", "IN $/M", "OUT $/M", "KEY"],
		rows.map((row) => [row.provider, row.id, formatTokens(row.contextWindow), formatPrice(row.inputPrice), formatPrice(row.outputPrice), row.keySource ?? "-"]),
		{ alignRight: [2, 3, 4] },
	);
	const [header = "", ...lines] = table;
	// One write for the whole table: a write per line is a system call per line on a pipe.
	// Models whose provider has no key are dimmed on a terminal.
	const body = lines.map((line, index) => (rows[index]?.keySet ? line : style.dim(line))).join("\n");
	process.stdout.write(`${style.bold(header)}\n${body}\n`);
	return EXIT_OK;
}

/** `200000` → `200k`, `1048576` → `1M`. */
export function formatTokens(tokens: number): string {
	if (tokens >= 1_000_000) return `${Number((tokens / 1_000_000).toFixed(2))}M`;
	if (tokens >= 1_000) return `${Math.round(tokens / 1_000)}k`;
	return String(tokens);
}

/** A price per million tokens; `-` when unknown (0). */
export function formatPrice(dollars: number): string {
	return dollars === 0 ? "-" : Number(dollars.toFixed(4)).toString();
}

function defaultModel(args: string[]): number {
	if (args.length === 0) {
		const configured = configuredModel();
		process.stdout.write(configured ? `${configured.spec}\n` : "none set: pi-ai picks a model whose key is set (pi-ai models default PROVIDER/MODEL sets one)\n");
		return EXIT_OK;
	}
	if (args.length > 1) throw new CliError("pi-ai models default takes one model, e.g. anthropic/claude-haiku-4-5:low");
	const spec = parseModelSpec(args[0] ?? "");
	const stored = readStoredKeys();
	const model = findCatalogModel(spec, (provider) => resolveApiKey(provider, stored).source !== undefined);
	if (!model) throw unknownModelError(spec);
	const value = `${model.provider}/${model.id}${spec.thinking ? `:${spec.thinking}` : ""}`;
	const path = writeDefaultModel(value);
	process.stdout.write(`default model: ${value} (saved in ${path})\n`);
	return EXIT_OK;
}
