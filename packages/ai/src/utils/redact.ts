/** The shortest secret redacted: shorter ones would mangle ordinary words. */
const MIN_SECRET_LENGTH = 8;

/** What a secret becomes. */
const REDACTED = "[REDACTED]";

/**
 * Replaces every occurrence of each secret in `text` with `[REDACTED]`, and also a secret cut
 * in half by a truncation: the first 8 or more characters of a secret at the end of `text`, or
 * just before an ellipsis (`…`), are replaced too.
 * Secrets shorter than 8 characters are ignored: they would mangle ordinary words.
 *
 * @example
 * ```ts
 * redactSecrets("bad key sk-abcdefghijkl", ["sk-abcdefghijkl"]); // "bad key [REDACTED]"
 * redactSecrets("bad key sk-abcdefgh…", ["sk-abcdefghijkl"]); // "bad key [REDACTED]…"
 * ```
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
	let result = text;
	for (const secret of secrets) {
		if (!secret || secret.length < MIN_SECRET_LENGTH) continue;
		if (result.includes(secret)) result = result.split(secret).join(REDACTED);
		result = redactCutSecret(result, secret);
	}
	return result;
}

/**
 * `text` cut to `max` characters (with `…` when cut), redacted first: a secret is never cut in
 * half before it could be recognised, and a cut that falls inside `[REDACTED]` leaves nothing of
 * the secret.
 *
 * @example
 * ```ts
 * truncateRedacted(`echo: ${key} and more`, 12, [key]); // "echo: [REDA…"
 * ```
 */
export function truncateRedacted(text: string, max: number, secrets: readonly (string | undefined)[] = []): string {
	const redacted = redactSecrets(text, secrets);
	return redacted.length > max ? `${redacted.slice(0, max)}…` : redacted;
}

/** Replaces a prefix of `secret` (8 characters or more) that ends at the end of `text` or at an ellipsis. */
function redactCutSecret(text: string, secret: string): string {
	const head = secret.slice(0, MIN_SECRET_LENGTH);
	let result = text;
	for (let at = result.indexOf(head); at !== -1; at = result.indexOf(head, at + 1)) {
		let length = MIN_SECRET_LENGTH;
		while (length < secret.length && result.charCodeAt(at + length) === secret.charCodeAt(length)) length++;
		const next = at + length;
		if (next === result.length || result[next] === "…") {
			result = result.slice(0, at) + REDACTED + result.slice(next);
			at += REDACTED.length - 1;
		}
	}
	return result;
}
