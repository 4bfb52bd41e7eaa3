import { describe, expect, it } from "vitest";
import { startIdleTimer } from "../../src/http/idle-timer.js";

describe("startIdleTimer", () => {
	it("re-arms a timeout whose handle has no refresh() (a browser's or worker's number)", () => {
		const realSetTimeout = globalThis.setTimeout;
		const realClearTimeout = globalThis.clearTimeout;
		const calls: string[] = [];
		const callbacks: (() => void)[] = [];
		// A browser-shaped timer API: setTimeout returns a plain number, as window.setTimeout does.
		globalThis.setTimeout = ((fn: () => void, ms: number) => {
			callbacks.push(fn);
			calls.push(`set ${callbacks.length} ${ms}`);
			return callbacks.length;
		}) as unknown as typeof setTimeout;
		globalThis.clearTimeout = ((id: number) => calls.push(`clear ${id}`)) as typeof clearTimeout;
		try {
			const fired: string[] = [];
			const timer = startIdleTimer(50, () => fired.push("idle"));
			timer.refresh();
			timer.refresh();
			timer.clear();
			timer.refresh();
			expect(calls).toEqual(["set 1 50", "clear 1", "set 2 50", "clear 2", "set 3 50", "clear 3"]);
			callbacks[2]?.();
			expect(fired).toEqual(["idle"]);
		} finally {
			globalThis.setTimeout = realSetTimeout;
			globalThis.clearTimeout = realClearTimeout;
		}
	});

	it("uses the handle's own refresh() in Node", () => {
		const fired: string[] = [];
		const timer = startIdleTimer(60_000, () => fired.push("idle"));
		timer.refresh();
		timer.clear();
		expect(fired).toEqual([]);
	});
});
