/**
 * A second name for one thing stays only as a deprecated alias of the reference's name (its
 * TSDoc says which to use): it gives exactly what the reference's name gives.
 */
import { describe, expect, it } from "vitest";
import { type CompactionEntry, compactionSummaryMessage, createCompactionSummaryMessage } from "../../src/index.js";

describe("deprecated names", () => {
	it("compactionSummaryMessage(entry) is createCompactionSummaryMessage(entry.summary, entry.tokensBefore, entry.timestamp)", () => {
		const entry: CompactionEntry = {
			type: "compaction",
			id: "c1",
			parentId: "m1",
			timestamp: 1_700_000_000_000,
			summary: "## Goal\nShip it.",
			firstKeptEntryId: "m1",
			tokensBefore: 12_345,
		};
		expect(compactionSummaryMessage(entry)).toEqual(createCompactionSummaryMessage(entry.summary, entry.tokensBefore, entry.timestamp));
		expect(compactionSummaryMessage(entry)).toEqual({ role: "compactionSummary", summary: "## Goal\nShip it.", tokensBefore: 12_345, timestamp: 1_700_000_000_000 });
	});
});
