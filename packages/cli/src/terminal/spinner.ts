import type { OutputStream } from "./style.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const INTERVAL_MS = 80;

/**
 * A one-line spinner on a TTY, shown while the CLI waits for the model's first token. On a stream
 * that is not a TTY it does nothing at all, so pipes and logs never see its frames.
 *
 * `stop()` erases the line (carriage return, clear to end of line) so the reply starts where the
 * spinner was; it is safe to call at any time, any number of times.
 *
 * @example
 * ```ts
 * const spinner = new Spinner(process.stderr, "waiting for claude-haiku-4-5");
 * spinner.start();
 * // … first token arrives
 * spinner.stop();
 * ```
 */
export class Spinner {
	private timer: ReturnType<typeof setInterval> | undefined;
	private frame = 0;

	constructor(
		private readonly stream: OutputStream,
		private readonly label: string,
	) {}

	/** True while frames are being drawn. */
	get spinning(): boolean {
		return this.timer !== undefined;
	}

	/** Starts drawing (no-op when not a TTY or already spinning). */
	start(): void {
		if (this.stream.isTTY !== true || this.timer) return;
		this.draw();
		this.timer = setInterval(() => this.draw(), INTERVAL_MS);
		// The spinner alone must never keep the process alive.
		this.timer.unref?.();
	}

	/** Stops and erases the spinner line. */
	stop(): void {
		if (!this.timer) return;
		clearInterval(this.timer);
		this.timer = undefined;
		this.stream.write("\r\x1b[2K");
	}

	private draw(): void {
		const frame = FRAMES[this.frame++ % FRAMES.length];
		// Hidden cursor would need restoring on every exit path; a redrawn line is enough.
		this.stream.write(`\r\x1b[2K${frame} ${this.label}`);
	}
}
