/**
 * Text from a model or a session file, made safe to print on a terminal: C0 and C1 control
 * characters (other than newline and tab) and DEL become visible escapes such as `\x1b`, so no
 * escape sequence can set the window title, write the clipboard (OSC 52), move the cursor or
 * hide text. A carriage return is kept only before a newline (`\r\n` line ends).
 */

// C0 (0x00-0x1f) but tab and newline, DEL, and C1 (0x80-0x9f); a CR not followed by LF.
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)/g;

/**
 * `text` with its control characters escaped.
 *
 * @example
 * escapeControlCharacters("hi\x1b]0;pwned\x07") // "hi\\x1b]0;pwned\\x07"
 */
export function escapeControlCharacters(text: string): string {
	return text.replace(CONTROL, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`);
}
