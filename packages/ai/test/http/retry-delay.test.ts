import { describe, expect, it } from "vitest";
import { backoffDelay, delay, parseRetryAfter } from "../../src/http/retry-delay.js";

describe("parseRetryAfter", () => {
	it("reads seconds, milliseconds and HTTP dates", () => {
		expect(parseRetryAfter(new Headers({ "retry-after": "2" }))).toBe(2000);
		expect(parseRetryAfter(new Headers({ "retry-after-ms": "150", "retry-after": "2" }))).toBe(150);
		const now = Date.parse("Wed, 21 Oct 2026 07:28:00 GMT");
		expect(parseRetryAfter(new Headers({ "retry-after": "Wed, 21 Oct 2026 07:28:30 GMT" }), now)).toBe(30_000);
		expect(parseRetryAfter(new Headers({ "retry-after": "Wed, 21 Oct 2026 07:27:00 GMT" }), now)).toBe(0);
	});
	it("ignores missing or unusable values", () => {
		expect(parseRetryAfter(new Headers())).toBeUndefined();
		expect(parseRetryAfter(new Headers({ "retry-after": "soon" }))).toBeUndefined();
		expect(parseRetryAfter(new Headers({ "retry-after": "-1" }))).toBeUndefined();
	});
});

describe("backoffDelay", () => {
	it("doubles per attempt with jitter in the upper half, capped", () => {
		expect(backoffDelay(1, 500, 8000, () => 0)).toBe(250);
		expect(backoffDelay(1, 500, 8000, () => 1)).toBe(500);
		expect(backoffDelay(3, 500, 8000, () => 1)).toBe(2000);
		expect(backoffDelay(10, 500, 8000, () => 1)).toBe(8000);
	});
});

describe("delay", () => {
	it("rejects at once with the signal's reason and leaves no timer", async () => {
		const controller = new AbortController();
		const pending = delay(60_000, controller.signal);
		controller.abort(new Error("stop"));
		await expect(pending).rejects.toThrow("stop");
	});
	it("rejects when the signal is already aborted", async () => {
		await expect(delay(10, AbortSignal.abort(new Error("already")))).rejects.toThrow("already");
	});
});
