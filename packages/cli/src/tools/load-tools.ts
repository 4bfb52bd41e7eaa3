/**
 * `--tool NAME` (a built-in tool) and `--tools FILE` (a module of the user's own tools).
 *
 * A tools module is an ES module whose default export, or `tools` export, is one `AgentTool` or
 * an array of them (see docs/cli.md). Each is checked for a name, a description, a parameters
 * schema and an `execute` function before the run, so a mistake is a usage error naming the file,
 * not a failure halfway through a conversation.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { AgentTool } from "@pi/agent-core";
import { CliError } from "../cli-error.js";
import { calculatorTool } from "./calculator.js";

/** The built-in tools, by name. */
export const BUILTIN_TOOLS: Readonly<Record<string, AgentTool<any>>> = { calculator: calculatorTool };

/** The built-in tool `name`, or a usage error listing the built-ins. */
export function builtinTool(name: string): AgentTool<any> {
	const tool = Object.hasOwn(BUILTIN_TOOLS, name) ? BUILTIN_TOOLS[name] : undefined;
	if (!tool) throw new CliError(`unknown tool "${name}" for --tool; built-in tools: ${Object.keys(BUILTIN_TOOLS).join(", ")} (your own go in a module: --tools ./my-tools.js)`);
	return tool;
}

/** Loads the tools of a module; `path` is relative to the working directory. */
export async function loadToolsModule(path: string): Promise<AgentTool<any>[]> {
	const typeScript = /\.[cm]?ts$/.test(path);
	if (typeScript && !canStripTypes()) throw new CliError(`cannot load tools from ${path}: ${TYPESCRIPT_NEEDS}`);
	let loaded: Record<string, unknown>;
	try {
		loaded = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		const reason =
			code === "ERR_MODULE_NOT_FOUND" ? "no such file" : code === "ERR_UNKNOWN_FILE_EXTENSION" && typeScript ? TYPESCRIPT_NEEDS : (error as Error).message;
		throw new CliError(`cannot load tools from ${path}: ${reason}`);
	}
	const exported = loaded.default ?? loaded.tools;
	const tools = exported === undefined ? [] : Array.isArray(exported) ? exported : [exported];
	if (tools.length === 0) throw new CliError(`${path} exports no tools: export default an array of tools (or one tool), or export const tools = [...]`);
	tools.forEach((tool, index) => checkTool(tool, `${path}: tool ${index + 1}`));
	return tools as AgentTool<any>[];
}

/** Why a `.ts` module does not load here. */
const TYPESCRIPT_NEEDS = `Node ${process.version} cannot load TypeScript; use Node 22.18 or later (or 22.6+ with --experimental-strip-types), or compile the module to .js`;

/** Whether this Node strips TypeScript types on import (22.18+, or 22.6+ with the flag). */
function canStripTypes(): boolean {
	return Boolean((process.features as { typescript?: unknown }).typescript);
}

function checkTool(tool: unknown, where: string): void {
	const value = tool as Partial<AgentTool<any>> | null;
	if (!value || typeof value !== "object") throw new CliError(`${where} is not an object`);
	const named = typeof value.name === "string" && value.name !== "" ? `${where} ("${value.name}")` : where;
	if (typeof value.name !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(value.name)) throw new CliError(`${named}: name must be 1-64 letters, digits, _ or -`);
	if (typeof value.description !== "string") throw new CliError(`${named}: description must be a string`);
	if (!value.parameters || typeof value.parameters !== "object") throw new CliError(`${named}: parameters must be a JSON Schema object`);
	if (typeof value.execute !== "function") throw new CliError(`${named}: execute must be a function`);
	// label is for UIs; default it rather than refuse a tool written for another framework.
	if (typeof value.label !== "string") (value as { label: string }).label = value.name;
}
