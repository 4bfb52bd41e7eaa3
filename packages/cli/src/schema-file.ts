import { readFileSync } from "node:fs";
import { basename, extname } from "node:path";
import type { OutputOptions, TSchema } from "@pi/ai";
import { CliError } from "./cli-error.js";

/**
 * The structured output of `--schema FILE.json`: the file's JSON Schema, named after the file
 * (`invoice.json` → `invoice`; characters an API would reject become `_`). A file that cannot be
 * read, is not JSON, or holds no JSON Schema object is a usage error naming the file.
 *
 * @example
 * readSchemaFile("invoice.json") // { schema: { type: "object", … }, name: "invoice" }
 */
export function readSchemaFile(path: string): OutputOptions {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		throw new CliError(`--schema ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
	}
	let schema: unknown;
	try {
		schema = JSON.parse(text);
	} catch (error) {
		throw new CliError(`--schema ${path}: not JSON (${error instanceof Error ? error.message : String(error)})`);
	}
	if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw new CliError(`--schema ${path}: expected a JSON Schema object`);
	const name = basename(path, extname(path)).replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "output";
	return { schema: schema as TSchema, name };
}
