/**
 * Repairs the two string-literal mistakes models make most in tool arguments: raw control
 * characters (a literal newline or tab inside a string) and backslashes before characters JSON
 * cannot escape (`"C:\Users"`, `"\d+"`). Outside string literals nothing changes, so a repair
 * never turns invalid structure into something the model did not write.
 */

/** Characters JSON allows after a backslash (`\u` also needs four hex digits). */
const ESCAPABLE = new Set(['"', "\\", "/", "b", "f", "n", "r", "t", "u"]);

const SHORT_ESCAPES: Readonly<Record<string, string>> = { "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeControl(char: string): string {
	return SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * `json` with control characters inside strings escaped and stray backslashes doubled. Valid JSON
 * comes back unchanged.
 *
 * @example
 * repairJson('{"path": "C:\\Users\\me"}') // '{"path": "C:\\\\Users\\\\me"}'
 */
export function repairJson(json: string): string {
	const parts: string[] = [];
	let inString = false;
	let copiedUpTo = 0;
	// Collect unchanged runs as slices and only the replacements as new strings, so a long valid
	// document costs one pass and one join.
	const replace = (at: number, length: number, text: string) => {
		parts.push(json.slice(copiedUpTo, at), text);
		copiedUpTo = at + length;
	};
	for (let index = 0; index < json.length; index++) {
		const char = json[index] as string;
		if (!inString) {
			if (char === '"') inString = true;
			continue;
		}
		if (char === '"') {
			inString = false;
		} else if (char === "\\") {
			const next = json[index + 1];
			const validUnicode = next === "u" && /^[0-9a-fA-F]{4}$/.test(json.slice(index + 2, index + 6));
			if (next !== undefined && ESCAPABLE.has(next) && (next !== "u" || validUnicode)) {
				index += 1; // a valid escape: keep both characters
			} else {
				replace(index, 1, "\\\\");
			}
		} else if (char.charCodeAt(0) < 0x20) {
			replace(index, 1, escapeControl(char));
		}
	}
	if (copiedUpTo === 0) return json;
	parts.push(json.slice(copiedUpTo));
	return parts.join("");
}

/**
 * `JSON.parse(json)`, and when that fails, `JSON.parse(repairJson(json))`. Throws the original
 * `SyntaxError` when the repair changes nothing, or the repaired text's when it is still invalid.
 *
 * @example
 * parseJsonWithRepair<{ text: string }>('{"text": "line one\nline two"}').text // "line one\nline two"
 */
export function parseJsonWithRepair<T>(json: string): T {
	try {
		return JSON.parse(json) as T;
	} catch (error) {
		const repaired = repairJson(json);
		if (repaired === json) throw error;
		return JSON.parse(repaired) as T;
	}
}
