import { describe, expect, it } from "vitest";
import { effortForLevel, omitsThinkingByDefault, supportsAdaptiveThinking } from "../../../src/providers/anthropic-messages/model-features.js";

/** Model capabilities read from the id, in every Anthropic naming scheme and behind provider prefixes. */
describe("anthropic-messages model features", () => {
	it.each([
		["claude-3-7-sonnet-20250219", false],
		["claude-3-5-haiku-20241022", false],
		["claude-sonnet-4-20250514", false],
		["claude-opus-4-1-20250805", false],
		["claude-sonnet-4-5-20250929", false],
		["claude-haiku-4-5-20251001", false],
		["claude-opus-4-5-20251101", false],
		["claude-opus-4-6", true],
		["claude-sonnet-4-6", true],
		["claude-opus-4-7", true],
		["claude-opus-4.6", true],
		["anthropic.claude-opus-4-6-v1", true],
		["us.anthropic.claude-sonnet-4-5-20250929-v1:0", false],
		["claude-mythos-preview", true],
		["claude-fable-5-1", true],
		["claude-sonnet-5", true],
		["gpt-4o", false],
	])("supportsAdaptiveThinking(%s) is %s", (id, expected) => {
		expect(supportsAdaptiveThinking(id)).toBe(expected);
	});

	it.each([
		["claude-sonnet-4-6", false],
		["claude-opus-4-6", false],
		["claude-opus-4-7", true],
		["claude-opus-4-8", true],
		["claude-mythos-preview", true],
		["claude-fable-5-1", true],
		["claude-sonnet-4-20250514", false],
	])("omitsThinkingByDefault(%s) is %s", (id, expected) => {
		expect(omitsThinkingByDefault(id)).toBe(expected);
	});

	it.each([
		["claude-sonnet-4-6", "xhigh", "high"],
		["claude-opus-4-6", "xhigh", "max"],
		["claude-opus-4-7", "xhigh", "xhigh"],
		["claude-sonnet-5", "xhigh", "xhigh"],
		["claude-mythos-preview", "xhigh", "max"],
		["claude-opus-4-7", "minimal", "low"],
		["claude-opus-4-7", "low", "low"],
		["claude-opus-4-7", "medium", "medium"],
		["claude-opus-4-7", "high", "high"],
	] as const)("effortForLevel(%s, %s) is %s", (id, level, effort) => {
		expect(effortForLevel(id, level)).toBe(effort);
	});
});
