import { describe, expect, it } from "vitest";
import { mergeModelFacts } from "../scripts/model-sources/model-facts.js";

describe("mergeModelFacts: the catalog generator's precedence rule", () => {
	it("takes limits and capabilities from the fresher catalog, and the rest from the breadth snapshot", () => {
		const merged = mergeModelFacts("m", {
			breadth: { name: "Model M", reasoning: true, imageInput: true, contextWindow: 128_000, maxTokens: 4_096 },
			fresh: { name: "M", reasoning: false, contextWindow: 200_000 },
		});
		expect(merged).toEqual({
			name: "Model M",
			// A fresher `false` still wins: it is something the fresher source says.
			reasoning: false,
			input: ["text", "image"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 200_000,
			maxTokens: 4_096,
		});
	});

	it("takes each price from the price list, then the fresher catalog, then the snapshot, and 0 when nobody knows", () => {
		const merged = mergeModelFacts("m", {
			breadth: { contextWindow: 1_000, cost: { input: 1, output: 2, cacheRead: 0.5 } },
			fresh: { cost: { input: 3, cacheRead: 0.3 } },
			prices: { input: 5 },
		});
		expect(merged?.cost).toEqual({ input: 5, output: 2, cacheRead: 0.3, cacheWrite: 0 });
	});

	it("keeps the snapshot's display name, falling back to the fresher catalog's and then the id", () => {
		expect(mergeModelFacts("m", { breadth: { name: "Claude X", contextWindow: 1 }, fresh: { name: "X" } })?.name).toBe("Claude X");
		expect(mergeModelFacts("m", { fresh: { name: "X", contextWindow: 1 } })?.name).toBe("X");
		expect(mergeModelFacts("model-id", { fresh: { contextWindow: 1 } })?.name).toBe("model-id");
	});

	it("uses the whole window as the output limit when no source gives one, and never exceeds the window", () => {
		expect(mergeModelFacts("m", { breadth: { contextWindow: 8_000 } })?.maxTokens).toBe(8_000);
		expect(mergeModelFacts("m", { fresh: { contextWindow: 8_000, maxTokens: 32_000 } })?.maxTokens).toBe(8_000);
	});

	it("defaults missing flags to no reasoning and text-only input", () => {
		expect(mergeModelFacts("m", { prices: { input: 1 }, fresh: { contextWindow: 10 } })).toMatchObject({ reasoning: false, input: ["text"] });
	});

	it("leaves out a model that no source gives a context window", () => {
		expect(mergeModelFacts("m", { breadth: { name: "M", maxTokens: 100 }, prices: { input: 1 } })).toBeUndefined();
		expect(mergeModelFacts("m", {})).toBeUndefined();
	});
});
