/**
 * True when `text` is empty or only whitespace. Unlike `text.trim() === ""` it allocates nothing
 * and stops at the first visible character, which matters once per streamed event: Anthropic pads
 * its `data:` lines with trailing spaces, so trimming would copy every event's payload.
 */
export function isBlank(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code !== 32 && code !== 9 && code !== 10 && code !== 13) return false;
	}
	return true;
}
