/**
 * Secrets never reach a cassette: the headers and query parameters that carry keys are replaced
 * by `<redacted>`, and so is every known key value wherever else it appears (a body, another
 * header, an error page that echoes it).
 */
import type { RecordedChunk } from "./cassette-store.js";

/** What a secret is replaced with on disk. */
export const REDACTED = "<redacted>";

/** Headers whose whole value is a credential. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set(["authorization", "proxy-authorization", "x-api-key", "x-goog-api-key", "api-key", "cookie", "set-cookie"]);

/** A header name that says it carries a credential: `x-portkey-api-key`, `x-auth-token`, `x-client-secret`. */
const CREDENTIAL_NAME = /auth|key|token|secret|password|passwd|credential|cookie|signature/i;

/**
 * Request headers whose values a cassette keeps as they are: the ones the built-in providers send,
 * which carry no secret. Any other request header (a gateway's, or one from `model.headers` or
 * `options.headers`) is written as `<redacted>`, and its value is redacted wherever else it appears.
 */
export const KEPT_REQUEST_HEADERS: ReadonlySet<string> = new Set([
	"accept",
	"content-type",
	"anthropic-version",
	"anthropic-beta",
	"anthropic-dangerous-direct-browser-access",
	"openai-beta",
	"x-goog-api-client",
	"x-client-request-id",
	"x-session-affinity",
]);

/**
 * True when a request header's value must not reach a cassette: its name looks like a credential
 * (`auth`, `key`, `token`, `secret`, …), or it is not on {@link KEPT_REQUEST_HEADERS}.
 */
export function isSecretRequestHeader(name: string): boolean {
	const lower = name.toLowerCase();
	return SECRET_HEADERS.has(lower) || CREDENTIAL_NAME.test(lower) || !KEPT_REQUEST_HEADERS.has(lower);
}

/** Query parameters whose value is a credential (Gemini's `?key=`). */
export const SECRET_QUERY_PARAMETERS: ReadonlySet<string> = new Set(["key", "api_key", "apikey"]);

/** Environment variables that hold credentials, by name: `OPENAI_API_KEY`, `ANTHROPIC_OAUTH_TOKEN`, `MY_SECRET`. */
const SECRET_VARIABLE = /(?:API_?KEY|_KEY|TOKEN|SECRET|PASSWORD)$/i;

/** Shorter values would turn ordinary words into `<redacted>`. */
const MIN_SECRET_LENGTH = 8;

/**
 * The values of the environment variables that look like credentials (`*_API_KEY`, `*_TOKEN`,
 * `*_SECRET`, …), at least 8 characters long. Read at each call, so keys set later are seen.
 */
export function environmentSecrets(env: Record<string, string | undefined> = process.env): string[] {
	const secrets: string[] = [];
	// Names first: reading every value of process.env is a native call each, and slow.
	for (const name of Object.keys(env)) {
		if (!SECRET_VARIABLE.test(name)) continue;
		const value = env[name];
		if (value && value.length >= MIN_SECRET_LENGTH) secrets.push(value);
	}
	return secrets;
}

/** The credential inside a header value: `Bearer sk-…` gives `sk-…` (and the whole value). */
export function secretsOfHeader(value: string): string[] {
	const token = /^(?:bearer|basic|token)\s+(.+)$/i.exec(value.trim())?.[1];
	return token ? [value, token] : [value];
}

/** Replaces a fixed set of secret values in text and in bytes. */
export class Redactor {
	private readonly secrets: string[];

	constructor(secrets: Iterable<string>) {
		// Longest first, so that a key containing another key is replaced whole.
		this.secrets = [...new Set([...secrets].filter((secret) => secret.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
	}

	/** `text` with every secret replaced by `<redacted>`. */
	text(text: string): string {
		let result = text;
		for (const secret of this.secrets) if (result.includes(secret)) result = result.split(secret).join(REDACTED);
		return result;
	}

	/** Any JSON value with every string inside redacted (keys too). */
	json(value: unknown): unknown {
		if (typeof value === "string") return this.text(value);
		if (Array.isArray(value)) return value.map((item) => this.json(item));
		if (typeof value === "object" && value !== null) {
			return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.text(key), this.json(item)]));
		}
		return value;
	}

	/**
	 * `body` with every secret replaced, and `chunks` moved to match: a cut keeps its place relative
	 * to the bytes around it, and a cut that fell inside a secret moves to the secret's end.
	 * Secrets are ASCII, so working on the latin1 view keeps every other byte as it was.
	 */
	bytes(body: Buffer, chunks?: readonly RecordedChunk[]): { body: Buffer; chunks?: RecordedChunk[] } {
		const text = body.toString("latin1");
		const hits: { start: number; end: number }[] = [];
		for (const secret of this.secrets) {
			for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + secret.length)) {
				if (!hits.some((hit) => at < hit.end && at + secret.length > hit.start)) hits.push({ start: at, end: at + secret.length });
			}
		}
		if (hits.length === 0) return { body, chunks: chunks ? [...chunks] : undefined };
		hits.sort((a, b) => a.start - b.start);
		let out = "";
		let position = 0;
		for (const hit of hits) {
			out += text.slice(position, hit.start) + REDACTED;
			position = hit.end;
		}
		out += text.slice(position);
		const redacted = Buffer.from(out, "latin1");
		if (!chunks) return { body: redacted };
		/** Where the original offset `offset` lands in the redacted body. */
		const moved = (offset: number): number => {
			let shift = 0;
			for (const hit of hits) {
				if (offset >= hit.end) shift += REDACTED.length - (hit.end - hit.start);
				else if (offset > hit.start) return hit.start + shift + REDACTED.length;
				else break;
			}
			return offset + shift;
		};
		const result: RecordedChunk[] = [];
		let end = 0;
		let previous = 0;
		for (const [size, afterMs] of chunks) {
			end += size;
			const cut = moved(end);
			if (cut > previous) result.push([cut - previous, afterMs]);
			previous = cut;
		}
		return { body: redacted, chunks: result };
	}
}
