import type { SchemaError } from "./load-schema-compiler.js";

/** One readable line per problem: `<path>: <problem>`; the root is `/`. */
export function formatSchemaErrors(errors: readonly SchemaError[]): string[] {
	const lines: string[] = [];
	const seen = new Set<string>();
	const hasAdditional = new Set(errors.filter((e) => e.keyword === "additionalProperties").map((e) => e.instancePath));
	for (const error of errors) {
		const path = error.instancePath || "/";
		let problem: string;
		switch (error.keyword) {
			case "type":
				problem = `expected ${String(error.params.type)}`;
				break;
			case "required": {
				const names = (error.params.requiredProperties as string[] | undefined) ?? [];
				problem = `missing required ${names.length === 1 ? "property" : "properties"} ${names.map((n) => `"${n}"`).join(", ")}`;
				break;
			}
			case "additionalProperties": {
				const names = (error.params.additionalProperties as string[] | undefined) ?? [];
				problem = `unexpected ${names.length === 1 ? "property" : "properties"} ${names.map((n) => `"${n}"`).join(", ")}`;
				break;
			}
			case "enum":
				problem = `expected one of ${JSON.stringify(error.params.allowedValues)}`;
				break;
			case "const":
				problem = `expected ${JSON.stringify(error.params.allowedValue ?? error.params.const)}`;
				break;
			case "boolean": {
				// A property forbidden by `additionalProperties: false` is already reported on its parent.
				const parent = path.slice(0, Math.max(0, path.lastIndexOf("/")));
				if (hasAdditional.has(parent)) continue;
				problem = "not allowed here";
				break;
			}
			default:
				problem = error.message.replace(/^must be /, "expected ").replace(/^must /, "expected to ");
		}
		const line = `${path}: ${problem}`;
		if (!seen.has(line)) {
			seen.add(line);
			lines.push(line);
		}
	}
	return lines.length > 0 ? lines : ["/: does not match the schema"];
}
