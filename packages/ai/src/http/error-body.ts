import { truncateRedacted } from "../utils/redact.js";

/**
 * Extracts the provider's own error message from an error response body: JSON bodies of every
 * supported API (`{error:{message,type,code}}`, Anthropic `{type:"error",error:{type,message}}`,
 * Gemini `[{error:{…}}]`, `{message}`, `{detail}`), HTML error pages (their title or heading) and
 * plain text. Returns `undefined` for an empty body. `secrets` are redacted before the message
 * is cut to length, so that a key echoed across the cut leaves nothing of itself.
 */
export function extractErrorMessage(body: string, secrets: readonly (string | undefined)[] = []): string | undefined {
	const truncate = (text: string, max: number) => truncateRedacted(text, max, secrets);
	const text = body.trim();
	if (text === "") return undefined;
	if (text.startsWith("{") || text.startsWith("[")) {
		try {
			const message = messageFromJson(JSON.parse(text));
			if (message) return truncate(message, 2_000);
		} catch {
			// not JSON after all: fall through to text
		}
	}
	if (/^<(!doctype|html|head|body|\?xml)/i.test(text) || /<\/(html|body|title|h1)>/i.test(text)) {
		return truncate(messageFromHtml(text), 300);
	}
	return truncate(collapse(text), 500);
}

function messageFromJson(value: unknown): string | undefined {
	if (Array.isArray(value)) return value.length > 0 ? messageFromJson(value[0]) : undefined;
	if (typeof value !== "object" || value === null) return typeof value === "string" ? value : undefined;
	const record = value as Record<string, unknown>;
	const error = record.error;
	if (typeof error === "string") return error;
	if (typeof error === "object" && error !== null) {
		const inner = error as Record<string, unknown>;
		const message = typeof inner.message === "string" ? inner.message : undefined;
		const kind = [inner.type, inner.code, inner.status].find((field) => typeof field === "string") as
			| string
			| undefined;
		if (message && kind && !message.includes(kind)) return `${kind}: ${message}`;
		return message ?? kind;
	}
	for (const key of ["message", "detail", "error_message", "msg"]) {
		const field = record[key];
		if (typeof field === "string") return field;
	}
	return undefined;
}

function messageFromHtml(html: string): string {
	const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
	const heading = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
	const picked = title ?? heading ?? html;
	const text = collapse(decodeEntities(picked.replace(/<[^>]*>/g, " ")));
	return text || "HTML error page";
}

function decodeEntities(text: string): string {
	return text
		.replace(/&lt;/g, "<")
		.replace(/&gt;/g, ">")
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&nbsp;/g, " ")
		.replace(/&amp;/g, "&");
}

function collapse(text: string): string {
	return text.replace(/\s+/g, " ").trim();
}
