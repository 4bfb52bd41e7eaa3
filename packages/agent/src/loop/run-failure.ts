/**
 * A failure that ends a run: something the loop called (a callback, the stream function, an
 * event listener) threw or rejected. The message names the culprit, so the assistant message
 * that reports it says where to look.
 */
export class RunFailure extends Error {
	override readonly name = "RunFailure";

	constructor(
		/** What failed, e.g. `convertToLlm` or `event listener`. */
		readonly site: string,
		cause: unknown,
	) {
		super(`${site} failed: ${errorText(cause)}`, { cause });
	}
}

/**
 * Calls `fn` and turns a synchronous throw or a rejection into a {@link RunFailure} naming
 * `site`. A `RunFailure` passes through unchanged.
 */
export async function guard<T>(site: string, fn: () => T | Promise<T>): Promise<T> {
	try {
		return await fn();
	} catch (error) {
		throw error instanceof RunFailure ? error : new RunFailure(site, error);
	}
}

/** The readable text of anything thrown. */
export function errorText(error: unknown): string {
	if (error instanceof Error) return error.message || error.name;
	if (typeof error === "string") return error;
	try {
		return JSON.stringify(error) ?? String(error);
	} catch {
		return String(error);
	}
}

/** Replaces each secret (8+ characters, as `@pi/ai` does) in `text` with `[REDACTED]`. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
	let result = text;
	for (const secret of secrets) {
		if (secret && secret.length >= 8 && result.includes(secret)) result = result.split(secret).join("[REDACTED]");
	}
	return result;
}
