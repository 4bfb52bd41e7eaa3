/**
 * Colours and dimming for one output stream, or none at all: escapes are written only when the
 * stream is a TTY and `NO_COLOR` is unset or empty (https://no-color.org). Pipes, files and CI
 * logs get plain text.
 */

/** The writable side the CLI writes to: `process.stdout` or `process.stderr`. */
export interface OutputStream {
	write(text: string): unknown;
	isTTY?: boolean;
	columns?: number;
}

/** Text styles for one stream; each is the identity when colours are off. */
export interface Style {
	/** True when escapes are written. */
	readonly enabled: boolean;
	dim(text: string): string;
	bold(text: string): string;
	red(text: string): string;
	green(text: string): string;
	yellow(text: string): string;
	cyan(text: string): string;
}

/** Whether `stream` gets colours: a TTY, and `NO_COLOR` unset or empty. */
export function colorsEnabled(stream: OutputStream, env: NodeJS.ProcessEnv = process.env): boolean {
	return stream.isTTY === true && !env.NO_COLOR;
}

/**
 * The styles for `stream`.
 *
 * @example
 * ```ts
 * const style = createStyle(process.stderr);
 * process.stderr.write(style.dim("thinking…"));
 * ```
 */
export function createStyle(stream: OutputStream, env: NodeJS.ProcessEnv = process.env): Style {
	const enabled = colorsEnabled(stream, env);
	// Each style closes with its own reset code (22 for bold/dim, 39 for colours), so styles nest
	// and a delta-by-delta dimmed stream never leaks its style into what follows.
	const wrap = (open: number, close: number) => (enabled ? (text: string) => `\x1b[${open}m${text}\x1b[${close}m` : (text: string) => text);
	return {
		enabled,
		dim: wrap(2, 22),
		bold: wrap(1, 22),
		red: wrap(31, 39),
		green: wrap(32, 39),
		yellow: wrap(33, 39),
		cyan: wrap(36, 39),
	};
}
