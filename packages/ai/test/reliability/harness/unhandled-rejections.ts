/** A spy on `unhandledRejection` for a whole test file: none may happen while its cases run. */
import { afterAll, beforeAll, expect } from "vitest";

/**
 * Installs a `process.on("unhandledRejection")` listener before the file's tests and, after them
 * (and a short grace period for late rejections), expects it never fired.
 */
export function expectNoUnhandledRejections(): void {
	const seen: unknown[] = [];
	const listener = (reason: unknown) => {
		seen.push(reason);
	};
	beforeAll(() => {
		process.on("unhandledRejection", listener);
	});
	afterAll(async () => {
		await new Promise((resolve) => setTimeout(resolve, 50));
		process.off("unhandledRejection", listener);
		expect(seen.map((reason) => (reason instanceof Error ? reason.stack : String(reason)))).toEqual([]);
	});
}
