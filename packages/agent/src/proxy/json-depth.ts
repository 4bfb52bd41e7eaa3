/**
 * How deeply a JSON text nests, found by one pass over its characters before it is parsed:
 * `JSON.parse` itself accepts millions of levels, but it blocks the event loop for seconds doing
 * so, and every recursive walk afterwards (validation, `JSON.stringify`, a provider's request
 * builder) overflows the stack.
 */

/**
 * The offset of the first `{` or `[` that opens level `limit + 1` of `text` (strings skipped),
 * or `undefined` when the text nests at most `limit` levels. Malformed JSON is not diagnosed
 * here: `JSON.parse` does that afterwards.
 */
export function jsonDepthExcess(text: string, limit: number): number | undefined {
	let depth = 0;
	let inString = false;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (inString) {
			if (code === 0x5c) index++; // a backslash escapes the next character
			else if (code === 0x22) inString = false;
		} else if (code === 0x22) inString = true;
		else if (code === 0x7b || code === 0x5b) {
			if (++depth > limit) return index;
		} else if (code === 0x7d || code === 0x5d) depth--;
	}
	return undefined;
}
