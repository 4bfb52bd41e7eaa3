/**
 * `pi-ai models [filter] [--json]` and `pi-ai models default [SPEC]`.
 */
import { getModels, getProviders } from "@pi/ai";
import { CliError, EXIT_OK, EXIT_REPLY_ERROR } from "../cli-error.js";
import { ADDED_MODEL_APIS, type AddedModelApi, configuredModel, readConfig, removeAddedModel, writeAddedModel, writeDefaultModel } from "../config.js";
import { COMPATIBLE_PROVIDER, readStoredKeys, resolveApiKey } from "../key-store.js";
import { checkBaseUrl, findAddedModel, findCatalogModel, parseModelSpec, unknownModelError } from "../model-spec.js";
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
	/** Added with `pi-ai models add` (not in the catalog). */
	added: boolean;
	/** The API root requests go to. */
	baseUrl: string;
}

/** Runs `pi-ai models …`; resolves to the exit code. */
export async function modelsCommand(argv: string[]): Promise<number> {
	const { values, positionals } = parseArguments(
		argv,
		{ json: { type: "boolean" }, "base-url": { type: "string" }, api: { type: "string" }, name: { type: "string" } },
		"pi-ai models",
	);
	if (positionals[0] === "add") return addModel(positionals.slice(1), values);
	if (values["base-url"] !== undefined || values.api !== undefined || values.name !== undefined) {
		throw new CliError("--base-url, --api and --name belong to pi-ai models add ID --base-url URL [--api API] [--name NAME]");
	}
	if (positionals[0] === "remove") return removeModel(positionals.slice(1));
	if (positionals[0] === "default") return defaultModel(positionals.slice(1));
	if (positionals.length > 1) throw new CliError(`pi-ai models takes one filter, got ${positionals.length} (quote a filter with spaces)`);
	const filter = (positionals[0] ?? "").toLowerCase();
	const stored = readStoredKeys();
	const rows: ModelRow[] = [];
	const matches = (provider: string, id: string, name: string) => !filter || `${provider}/${id}`.toLowerCase().includes(filter) || name.toLowerCase().includes(filter);
	const compatibleKey = resolveApiKey(COMPATIBLE_PROVIDER, stored).source;
	for (const added of Object.values(readConfig().models)) {
		const model = findAddedModel(parseModelSpec(added.id), { [added.id]: added });
		if (!model || !matches(COMPATIBLE_PROVIDER, added.id, model.name)) continue;
		rows.push({ ...modelRow(COMPATIBLE_PROVIDER, model, compatibleKey), added: true });
	}
	for (const provider of getProviders()) {
		const { source } = resolveApiKey(provider, stored);
		for (const model of getModels(provider)) {
			if (matches(provider, model.id, model.name)) rows.push(modelRow(provider, model, source));
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
		rows.map((row) => [row.added ? "added" : row.provider, row.id, formatTokens(row.contextWindow), formatPrice(row.inputPrice), formatPrice(row.outputPrice), row.keySource ?? "-"]),
		{ alignRight: [2, 3, 4] },
	);
	const [header = "", ...lines] = table;
	// One write for the whole table: a write per line is a system call per line on a pipe.
	// Models whose provider has no key are dimmed on a terminal.
	const body = lines.map((line, index) => (rows[index]?.keySet || rows[index]?.added ? line : style.dim(line))).join("\n");
	process.stdout.write(`${style.bold(header)}\n${body}\n`);
	return EXIT_OK;
}

/** One row of the listing. */
function modelRow(provider: string, model: ReturnType<typeof getModels>[number], source: "env" | "file" | undefined): ModelRow {
	return {
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
		added: false,
		baseUrl: model.baseUrl,
	};
}

/** `pi-ai models add ID --base-url URL [--api API] [--name NAME]`: saves a model the catalog lacks. */
function addModel(args: string[], values: { "base-url"?: string; api?: string; name?: string }): number {
	const [id, ...extra] = args;
	if (!id || extra.length > 0) throw new CliError("pi-ai models add takes one model id, e.g. pi-ai models add llama3.1 --base-url http://localhost:11434/v1");
	if (/\s/.test(id) || /[\x00-\x1f\x7f]/.test(id)) throw new CliError(`model id ${JSON.stringify(id)} may not contain spaces or control characters`);
	if (values["base-url"] === undefined) throw new CliError(`pi-ai models add ${id} needs --base-url URL, where the server is (e.g. http://localhost:11434/v1)`);
	const baseUrl = checkBaseUrl(values["base-url"]);
	const api = values.api ?? "openai-completions";
	if (!(ADDED_MODEL_APIS as readonly string[]).includes(api)) throw new CliError(`--api ${api}: expected one of ${ADDED_MODEL_APIS.join(", ")}`);
	const replaced = Object.hasOwn(readConfig().models, id);
	const path = writeAddedModel({ id, baseUrl, api: api as AddedModelApi, ...(values.name ? { name: values.name } : {}) });
	process.stderr.write(`${replaced ? "Replaced" : "Added"} ${id} (${api} at ${baseUrl}) in ${path}; use it with pi-ai -m ${id}\n`);
	return EXIT_OK;
}

/** `pi-ai models remove ID`: forgets an added model. */
function removeModel(args: string[]): number {
	const [id, ...extra] = args;
	if (!id || extra.length > 0) throw new CliError("pi-ai models remove takes one model id (pi-ai models lists the added ones)");
	if (!removeAddedModel(id)) {
		process.stderr.write(`pi-ai: no added model ${id} (only models added with pi-ai models add can be removed)\n`);
		return EXIT_REPLY_ERROR;
	}
	process.stderr.write(`Removed ${id}.\n`);
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
	const added = findAddedModel(spec);
	const model = added ?? findCatalogModel(spec, (provider) => resolveApiKey(provider, stored).source !== undefined);
	if (!model) throw unknownModelError(spec);
	// An added model is named by its id alone, as `-m` takes it.
	const value = `${added ? model.id : `${model.provider}/${model.id}`}${spec.thinking ? `:${spec.thinking}` : ""}`;
	const path = writeDefaultModel(value);
	process.stdout.write(`default model: ${value} (saved in ${path})\n`);
	return EXIT_OK;
}
