import type { GeminiPartialArg } from "./wire-types.js";

/**
 * Applies one streamed argument piece (Vertex AI `streamFunctionCallArguments`) to the arguments
 * built so far, in place. `jsonPath` names the value (`$.location`, `$.items[0].name`,
 * `$['odd key']`); `stringValue` pieces at the same path concatenate (a string arrives over
 * several chunks, ended by a piece without `willContinue`, often an empty one); `numberValue`,
 * `boolValue` and `nullValue` set the value. Missing containers are created: an array when the
 * next step is an index, else an object. Pieces without a usable path or value are ignored.
 *
 * Work per piece is proportional to the path's length, not to the arguments so far.
 *
 * @example
 * const args = {};
 * applyPartialArg(args, { jsonPath: "$.location", stringValue: "San ", willContinue: true });
 * applyPartialArg(args, { jsonPath: "$.location", stringValue: "Francisco" });
 * args; // { location: "San Francisco" }
 */
export function applyPartialArg(args: Record<string, unknown>, piece: GeminiPartialArg): void {
	const path = typeof piece.jsonPath === "string" ? parseJsonPath(piece.jsonPath) : undefined;
	if (!path || path.length === 0) return;
	let container: Record<string | number, unknown> = args;
	for (let i = 0; i < path.length - 1; i++) {
		const step = path[i] as string | number;
		const next = ownValue(container, step);
		if (typeof next === "object" && next !== null) {
			container = next as Record<string | number, unknown>;
		} else {
			const created: Record<string | number, unknown> = typeof path[i + 1] === "number" ? ([] as unknown as Record<number, unknown>) : {};
			setOwn(container, step, created);
			container = created;
		}
	}
	const last = path[path.length - 1] as string | number;
	if (typeof piece.stringValue === "string") {
		const existing = ownValue(container, last);
		setOwn(container, last, typeof existing === "string" ? existing + piece.stringValue : piece.stringValue);
	} else if (typeof piece.numberValue === "number") {
		setOwn(container, last, piece.numberValue);
	} else if (typeof piece.boolValue === "boolean") {
		setOwn(container, last, piece.boolValue);
	} else if ("nullValue" in piece) {
		setOwn(container, last, null);
	}
}

// Keys come from the model: read own properties only and write `__proto__` as a plain key, so that
// an argument path can never reach or replace a prototype.
function ownValue(container: Record<string | number, unknown>, key: string | number): unknown {
	return Object.hasOwn(container, key) ? container[key] : undefined;
}

function setOwn(container: Record<string | number, unknown>, key: string | number, value: unknown): void {
	if (key === "__proto__") Object.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true });
	else container[key] = value;
}

/**
 * Splits a JSONPath of plain steps (`$`, `.key`, `[0]`, `['key']`, `["key"]`) into keys and
 * indexes. Returns `undefined` for anything else (filters, wildcards), which is then ignored.
 */
export function parseJsonPath(path: string): (string | number)[] | undefined {
	if (!path.startsWith("$")) return undefined;
	const steps: (string | number)[] = [];
	let index = 1;
	while (index < path.length) {
		const char = path[index];
		if (char === ".") {
			let end = index + 1;
			while (end < path.length && path[end] !== "." && path[end] !== "[") end++;
			if (end === index + 1) return undefined;
			steps.push(path.slice(index + 1, end));
			index = end;
		} else if (char === "[") {
			const quote = path[index + 1];
			if (quote === "'" || quote === '"') {
				const close = path.indexOf(`${quote}]`, index + 2);
				if (close < 0) return undefined;
				steps.push(path.slice(index + 2, close));
				index = close + 2;
			} else {
				const close = path.indexOf("]", index + 1);
				const digits = close < 0 ? "" : path.slice(index + 1, close);
				if (!/^\d+$/.test(digits)) return undefined;
				steps.push(Number(digits));
				index = close + 1;
			}
		} else {
			return undefined;
		}
	}
	return steps;
}
