/**
 * The ways a run is asked to stop, handled as one: Ctrl-C (SIGINT), SIGTERM, SIGHUP (the terminal
 * closed) and a standard output whose reader went away (EPIPE: `pi-ai … | head -c 12`). Each
 * aborts the request at once, so the partial reply is kept and the session's lock released; a
 * second signal exits without waiting.
 */
import { EXIT_INTERRUPTED } from "./cli-error.js";

/** Why a run was asked to stop. */
export type StopReason = "SIGINT" | "SIGTERM" | "SIGHUP" | "EPIPE";

/** 128 + the signal's number, as shells report a process ended by it (SIGPIPE for EPIPE). */
export const STOP_EXIT_CODES: Readonly<Record<StopReason, number>> = { SIGINT: EXIT_INTERRUPTED, SIGTERM: 143, SIGHUP: 129, EPIPE: 141 };

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * Calls `onStop` once, at the first stop request; returns the function that stops listening.
 *
 * @example
 * ```ts
 * let stopped: StopReason | undefined;
 * const stopListening = onStopRequest((reason) => { stopped = reason; agent.abort(); });
 * try { await agent.prompt(text); } finally { stopListening(); }
 * ```
 */
export function onStopRequest(onStop: (reason: StopReason) => void): () => void {
	let stopped: StopReason | undefined;
	const stop = (reason: StopReason) => {
		if (stopped) {
			// Asked twice: the user does not want to wait for the abort to settle.
			if (reason !== "EPIPE") process.exit(STOP_EXIT_CODES[stopped]);
			return;
		}
		stopped = reason;
		onStop(reason);
	};
	const handlers = SIGNALS.map((signal) => [signal, () => stop(signal)] as const);
	for (const [signal, handler] of handlers) process.on(signal, handler);
	const onStdoutError = (error: NodeJS.ErrnoException) => {
		if (error.code === "EPIPE") stop("EPIPE");
	};
	process.stdout.on("error", onStdoutError);
	return () => {
		for (const [signal, handler] of handlers) process.off(signal, handler);
		process.stdout.off("error", onStdoutError);
	};
}
