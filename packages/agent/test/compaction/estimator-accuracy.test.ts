/**
 * The estimate's error, measured (see estimator-accuracy.ts for how): on generated agent
 * sessions checked with a real tokenizer, under 10% at 95% of the calls where usage exists (the
 * rest: a large, dense tool result right after the last usage, see docs/compaction.md); and the
 * text rule on the recorded replies of the four APIs.
 */
import { type ReplayServer, startReplayServer } from "@pi/ai/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measureCaptures, measureGenerated, spread } from "./estimator-accuracy.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

describe("estimator accuracy", () => {
	it("on generated sessions, the estimate is within 10% of the true size at 95% of the calls with usage (English, code, JSON)", () => {
		// 10 sessions here (the bench's table uses 20): tokenizing is slow on a loaded machine.
		const errors = measureGenerated("english", 10);
		const withUsage = spread(errors.withUsage);
		expect(withUsage.count).toBeGreaterThan(150);
		expect(withUsage.median).toBeLessThan(0.02);
		expect(withUsage.p95).toBeLessThan(0.1);
		// Without usage the text rule alone is much further off: usage is what makes it accurate.
		expect(spread(errors.withoutUsage).median).toBeGreaterThan(withUsage.median);
	}, 120_000);

	it("in Chinese text too, where four characters a token would miss most tokens", () => {
		const withUsage = spread(measureGenerated("cjk", 10).withUsage);
		expect(withUsage.median).toBeLessThan(0.02);
		expect(withUsage.p95).toBeLessThan(0.1);
	}, 120_000);

	it("on the recorded replies, the text rule's total is within 25% of the reported output tokens", async () => {
		const rows = await measureCaptures(server);
		const comparable = rows.filter((row) => row.error !== undefined);
		expect(comparable.length).toBeGreaterThanOrEqual(15);
		const estimated = comparable.reduce((sum, row) => sum + row.estimated, 0);
		const reported = comparable.reduce((sum, row) => sum + row.reported, 0);
		expect(Math.abs(estimated - reported) / reported).toBeLessThan(0.25);
		// Every API is represented.
		expect(new Set(comparable.map((row) => row.api)).size).toBe(4);
	}, 120_000);
});
