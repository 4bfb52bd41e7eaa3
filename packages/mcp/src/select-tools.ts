import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { McpToolsOptions } from "./types.js";

/**
 * The tools that `include` keeps and `exclude` does not drop, in the server's order. A name in
 * either list that the server does not have is a mistake (a typo, a stale config): it throws,
 * naming it and the tools there are.
 *
 * @example
 * ```ts
 * selectTools(tools, { exclude: ["get-env"] }, "everything");
 * ```
 */
export function selectTools(tools: readonly Tool[], options: McpToolsOptions, serverName: string): Tool[] {
	const names = new Set(tools.map((tool) => tool.name));
	for (const key of ["include", "exclude"] as const) {
		const unknown = (options[key] ?? []).filter((name) => !names.has(name));
		if (unknown.length > 0) {
			const available = [...names].map((name) => `"${name}"`).join(", ") || "none";
			throw new Error(
				`tools({ ${key} }) of MCP server "${serverName}" names ${unknown.map((name) => `"${name}"`).join(", ")}, which the server does not have. Its tools: ${available}.`,
			);
		}
	}
	const include = options.include ? new Set(options.include) : undefined;
	const exclude = new Set(options.exclude ?? []);
	return tools.filter((tool) => (include ? include.has(tool.name) : true) && !exclude.has(tool.name));
}
