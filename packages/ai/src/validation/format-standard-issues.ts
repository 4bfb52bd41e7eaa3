import type { StandardSchemaIssue } from "./standard-schema.js";

/**
 * One readable line per Standard Schema issue: `<JSON path>: <the library's message>`, the path
 * written as a JSON Pointer (`/items/0/name`; the root is `/`), as typebox problems are, so that a
 * model reads one format whatever library made the schema.
 *
 * @example
 * formatStandardIssues([{ message: "Expected number", path: ["items", 0, { key: "qty" }] }]);
 * // ["/items/0/qty: Expected number"]
 */
export function formatStandardIssues(issues: readonly StandardSchemaIssue[]): string[] {
	const lines: string[] = [];
	for (const issue of issues) {
		const keys = (issue.path ?? []).map((segment) => String(typeof segment === "object" && segment !== null ? segment.key : segment));
		const path = keys.length === 0 ? "/" : keys.map((key) => `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
		const line = `${path}: ${issue.message}`;
		if (!lines.includes(line)) lines.push(line);
	}
	return lines.length > 0 ? lines : ["/: does not match the schema"];
}
