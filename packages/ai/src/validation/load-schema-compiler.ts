/**
 * Loads typebox's JSON Schema compiler (`typebox/schema`) on first use, never at import time:
 * importing it costs about 90 ms, which users who never validate should not pay.
 */

/** The slice of `typebox/schema` this package uses. */
export interface SchemaCompiler {
	Compile(schema: object): CompiledSchema;
}

export interface CompiledSchema {
	Check(value: unknown): boolean;
	Errors(value: unknown): [boolean, SchemaError[]];
}

export interface SchemaError {
	keyword: string;
	instancePath: string;
	params: Record<string, unknown>;
	message: string;
}

let compiler: SchemaCompiler | undefined;

/**
 * Loads the compiler asynchronously. Call it once at start-up where synchronous loading is not
 * available (browsers, Node < 20.19); on Node it is optional.
 */
export async function preloadToolValidator(): Promise<void> {
	compiler ??= (await import("typebox/schema")) as unknown as SchemaCompiler;
}

/** The compiler, loading it synchronously on first use where the runtime can. */
export function schemaCompiler(): SchemaCompiler {
	if (compiler) return compiler;
	// Node >= 20.19 loads ES modules through require(); getBuiltinModule avoids a static
	// `node:module` import, which would break bundles for other runtimes.
	const nodeModule = (
		globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
	).process?.getBuiltinModule?.("module") as { createRequire?: (from: string) => (id: string) => unknown } | undefined;
	if (nodeModule?.createRequire) {
		try {
			compiler = nodeModule.createRequire(import.meta.url)("typebox/schema") as SchemaCompiler;
			return compiler;
		} catch (error) {
			throw new Error(
				"Could not load the tool argument validator (typebox/schema) synchronously. Call `await preloadToolValidator()` once before validating.",
				{ cause: error },
			);
		}
	}
	throw new Error("The tool argument validator is not loaded. Call `await preloadToolValidator()` once before validating.");
}
