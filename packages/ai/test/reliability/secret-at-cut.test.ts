/**
 * Issue 25, item 8: a key echoed across the point where a message is cut. Error bodies are cut to
 * 2,000 characters (JSON) or 500 (text), malformed-event previews to 200; a key straddling the
 * cut used to leave every character but the last in `errorMessage`. No 8 characters of the key
 * may remain, whatever the provider.
 */
import { describe, expect, it } from "vitest";
import { sseResponse } from "../../src/testing/index.js";
import { redactSecrets, truncateRedacted } from "../../src/utils/redact.js";
import { ADAPTERS, FAKE_KEY } from "./harness/adapters.js";
import { runCase } from "./harness/run-case.js";
import { expectNoUnhandledRejections } from "./harness/unhandled-rejections.js";
import { withServer } from "./harness/with-server.js";

expectNoUnhandledRejections();

/** Every 8-character piece of `key` found in `text`. */
function keyPieces(text: string, key = FAKE_KEY): string[] {
	const pieces: string[] = [];
	for (let at = 0; at + 8 <= key.length; at++) if (text.includes(key.slice(at, at + 8))) pieces.push(key.slice(at, at + 8));
	return pieces;
}

describe("redactSecrets and truncateRedacted", () => {
	it("redact a key's prefix of 8 characters or more at the end of the text or before an ellipsis, not elsewhere", () => {
		const key = "sk-abcdefghijklmnop";
		expect(redactSecrets("bad key sk-abcdefgh", [key])).toBe("bad key [REDACTED]");
		expect(redactSecrets("bad key sk-abcdefghijk… (more)", [key])).toBe("bad key [REDACTED]… (more)");
		expect(redactSecrets("bad key sk-abcd…", [key])).toBe("bad key sk-abcd…"); // 7 characters: too short to tell
		expect(redactSecrets("the sk-abcdefgh-style prefix", [key])).toBe("the sk-abcdefgh-style prefix");
		expect(redactSecrets(`${key} and ${key.slice(0, 12)}`, [key])).toBe("[REDACTED] and [REDACTED]");
	});

	it("truncateRedacted redacts before it cuts, so the cut can only fall inside [REDACTED]", () => {
		const key = "sk-abcdefghijklmnop";
		for (let max = 1; max < 40; max++) expect(keyPieces(truncateRedacted(`echo: ${key} and more`, max, [key]), key), `cut at ${max}`).toEqual([]);
		expect(truncateRedacted(`echo: ${key} and more`, 12, [key])).toBe("echo: [REDAC…");
	});
});

describe.each(ADAPTERS)("$api: a key cut in half", (adapter) => {
	it.each([
		["a JSON error body", 2_000],
		["a plain-text error body", 500],
	])("echoed across the cut of %s: nothing of it remains", async (kind, limit) => {
		for (const inside of [1, 8, 9, 20, FAKE_KEY.length - 1]) {
			await withServer(async (server) => {
				const message = `${"x".repeat(limit - inside)}${FAKE_KEY} trailing words`;
				if (kind === "a JSON error body") server.enqueue(adapter.error(400, "auth", message).response);
				else server.enqueue({ status: 400, headers: { "content-type": "text/plain" }, body: message });
				const result = await runCase(adapter, server, { apiKey: FAKE_KEY });
				expect(result.message.stopReason).toBe("error");
				expect(keyPieces(result.message.errorMessage ?? ""), `${inside} characters inside`).toEqual([]);
			});
		}
	});

	it("echoed across the cut of a malformed event's preview: nothing of it remains", async () => {
		const end = adapter.malformedEvent.endsWith("\r\n\r\n") ? "\r\n\r\n" : "\n\n";
		const body = adapter.malformedEvent.slice(0, -end.length);
		const data = body.slice(body.lastIndexOf("data: ") + "data: ".length);
		for (const inside of [8, 12, FAKE_KEY.length - 1]) {
			await withServer(async (server) => {
				server.enqueue(sseResponse(`${body}${"y".repeat(200 - data.length - inside)}${FAKE_KEY}${end}`));
				const result = await runCase(adapter, server, { apiKey: FAKE_KEY });
				expect(result.message.stopReason).toBe("error");
				expect(keyPieces(result.message.errorMessage ?? ""), `${inside} characters inside: ${result.message.errorMessage}`).toEqual([]);
			});
		}
	});
});
