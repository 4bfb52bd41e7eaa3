/**
 * Replaces every occurrence of each secret in `text` with `[REDACTED]`.
 * Secrets shorter than 8 characters are ignored: they would mangle ordinary words.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
	let result = text;
	for (const secret of secrets) {
		if (secret && secret.length >= 8 && result.includes(secret)) result = result.split(secret).join("[REDACTED]");
	}
	return result;
}
