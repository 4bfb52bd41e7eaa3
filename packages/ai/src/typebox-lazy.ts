/**
 * `Type` and `StringEnum` from the main entry, as `@mariozechner/pi-ai` exports them, without
 * loading typebox at import. typebox costs about 150-180 ms to load here, six times this
 * package's whole import budget, and most programs never build a schema at start-up.
 *
 * - `StringEnum` builds its schema itself: it is one plain JSON Schema object.
 * - `Type` is a stand-in for typebox's `Type` namespace that loads typebox synchronously on the
 *   first property read (`Type.Object(...)`), through `require`, which loads ES modules
 *   synchronously on Node ≥ 20.19, Bun and Deno. The first read costs typebox's load time; later
 *   reads cost a property lookup.
 * - Where there is no synchronous loader (a browser), import `Type` from "typebox" directly, or
 *   call `await loadTypebox()` once before the first schema is built.
 */
import type { TUnsafe, Type as TypeboxType } from "typebox";

type TypeboxNamespace = typeof TypeboxType;

let loaded: TypeboxNamespace | undefined;

/** `require`, made here rather than imported so that browser bundles carry no `node:` import. */
function syncRequire(): ((id: string) => unknown) | undefined {
	const builtin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
	if (typeof builtin !== "function") return undefined;
	const moduleApi = builtin("node:module") as { createRequire?: (from: string) => (id: string) => unknown } | undefined;
	return moduleApi?.createRequire?.(import.meta.url);
}

function typebox(): TypeboxNamespace {
	if (loaded) return loaded;
	const load = syncRequire();
	if (!load) {
		throw new Error(
			'Type from "@pi/ai" loads typebox on first use, and this runtime cannot load it synchronously: call `await loadTypebox()` first, or import { Type } from "typebox".',
		);
	}
	loaded = (load("typebox") as { Type: TypeboxNamespace }).Type;
	return loaded;
}

/**
 * Loads typebox now (asynchronously, so it works in browsers too), after which `Type` is ready.
 * Resolves to typebox's `Type` namespace.
 *
 * @example
 * await loadTypebox();
 * const schema = Type.Object({ city: Type.String() });
 */
export async function loadTypebox(): Promise<TypeboxNamespace> {
	if (!loaded) loaded = (await import("typebox")).Type;
	return loaded;
}

/**
 * typebox's `Type` namespace (`Type.Object`, `Type.String`, …), loaded on first use. Identical in
 * behaviour and types to `import { Type } from "typebox"`.
 *
 * @example
 * const Weather = Type.Object({ city: Type.String({ description: "City name" }) });
 */
export const Type: TypeboxNamespace = new Proxy({} as TypeboxNamespace, {
	get: (_target, key) => Reflect.get(typebox(), key),
	has: (_target, key) => Reflect.has(typebox(), key),
	ownKeys: () => Reflect.ownKeys(typebox()),
	getOwnPropertyDescriptor: (_target, key) => {
		const descriptor = Reflect.getOwnPropertyDescriptor(typebox(), key);
		// A proxy may only report configurable properties its (empty) target does not have.
		return descriptor ? { ...descriptor, configurable: true } : undefined;
	},
});

/**
 * A string schema limited to `values`, written as `{ type: "string", enum: [...] }` rather than
 * typebox's `anyOf` of literals, which Google's API and some others reject. `Static<>` gives the
 * union of the values. Loads nothing.
 *
 * @example
 * const Operation = StringEnum(["add", "subtract"], { description: "The operation" });
 * type Operation = Static<typeof Operation>; // "add" | "subtract"
 */
export function StringEnum<T extends readonly string[]>(values: T, options?: { description?: string; default?: T[number] }): TUnsafe<T[number]> {
	if (!Array.isArray(values) || values.some((value) => typeof value !== "string")) {
		throw new TypeError("StringEnum: `values` must be an array of strings");
	}
	const schema: Record<string, unknown> = { type: "string", enum: values };
	if (options?.description) schema.description = options.description;
	if (options?.default) schema.default = options.default;
	// typebox marks `Type.Unsafe` schemas with a non-enumerable `~unsafe`; do the same so that
	// typebox's guards recognise this schema exactly as the reference's.
	Object.defineProperty(schema, "~unsafe", { value: null, writable: true, enumerable: false, configurable: true });
	return schema as unknown as TUnsafe<T[number]>;
}
