/**
 * `pi-ai keys set PROVIDER`, `pi-ai keys list`, `pi-ai keys remove PROVIDER`.
 *
 * `set` reads the key without echo on a terminal (or from standard input when piped) and stores
 * it with mode 600; no command ever prints a key.
 */
import { getEnvApiKeyNames, getProviders } from "@pi/ai";
import { CliError, EXIT_OK, EXIT_REPLY_ERROR } from "../cli-error.js";
import { closestMatches } from "../closest-matches.js";
import { COMPATIBLE_PROVIDER, keysFilePath, keyVariableNames, readStoredKeys, removeKey, resolveApiKey, storeKey } from "../key-store.js";
import { parseArguments } from "../parse-arguments.js";
import { readSecret } from "../read-input.js";
import { formatTable } from "../terminal/table.js";

/** Providers a key can be stored for: the catalog's, the ones with key variables, and openai-compatible. */
export function knownProviders(): string[] {
	const names = new Set<string>([...getProviders(), COMPATIBLE_PROVIDER]);
	if (getEnvApiKeyNames("azure")) names.add("azure");
	return [...names].sort();
}

function checkProvider(provider: string | undefined, action: string): string {
	if (!provider) throw new CliError(`pi-ai keys ${action} needs a provider, e.g. pi-ai keys ${action} anthropic`);
	const known = knownProviders();
	if (known.includes(provider)) return provider;
	const near = closestMatches(provider, known);
	throw new CliError(`unknown provider "${provider}"${near.length > 0 ? `; did you mean ${near.join(", ")}?` : ""} (providers: ${known.join(", ")})`);
}

/** Runs `pi-ai keys …`; resolves to the exit code. */
export async function keysCommand(argv: string[]): Promise<number> {
	const { positionals } = parseArguments(argv, {}, "pi-ai keys");
	const [action, provider, ...extra] = positionals;
	if (extra.length > 0) throw new CliError(`pi-ai keys ${action} takes one provider`);
	switch (action) {
		case "set": {
			const name = checkProvider(provider, "set");
			const key = await readSecret(`API key for ${name} (input hidden): `);
			if (key === "") throw new CliError("no key given; nothing stored");
			const path = storeKey(name, key);
			process.stderr.write(`Stored the key for ${name} in ${path} (readable only by you).\n`);
			const shadowing = keyVariableNames(name).find((variable) => process.env[variable]);
			if (shadowing) process.stderr.write(`Note: ${shadowing} is set in the environment and is used instead.\n`);
			return EXIT_OK;
		}
		case "remove": {
			const name = checkProvider(provider, "remove");
			if (!removeKey(name)) {
				process.stderr.write(`pi-ai: no stored key for ${name}\n`);
				return EXIT_REPLY_ERROR;
			}
			process.stderr.write(`Removed the stored key for ${name}.\n`);
			return EXIT_OK;
		}
		case "list": {
			if (provider) throw new CliError("pi-ai keys list takes no provider");
			const stored = readStoredKeys();
			const rows = knownProviders().map((name) => {
				const { source } = resolveApiKey(name, stored);
				const variables = keyVariableNames(name).join(" or ") || "-";
				const where = source === "env" ? `environment (${keyVariableNames(name).find((variable) => process.env[variable]) ?? variables})` : source === "file" ? "keys file" : "not set";
				return [name, where, variables];
			});
			for (const line of formatTable(["PROVIDER", "KEY", "VARIABLES"], rows)) process.stdout.write(`${line}\n`);
			process.stdout.write(`keys file: ${keysFilePath()}\n`);
			return EXIT_OK;
		}
		case undefined:
			throw new CliError("pi-ai keys needs an action: set PROVIDER, list or remove PROVIDER");
		default:
			throw new CliError(`unknown action "${action}" for pi-ai keys; expected set, list or remove`);
	}
}
