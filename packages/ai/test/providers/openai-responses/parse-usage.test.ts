/** Responses usage per the conformance table: cached input tokens are cache reads, not input. */
import { expect, it } from "vitest";
import { parseUsage } from "../../../src/providers/openai-responses/parse-usage.js";

it("splits cached tokens out of input_tokens and keeps output_tokens whole", () => {
	expect(
		parseUsage({ input_tokens: 9463, input_tokens_details: { cached_tokens: 8320 }, output_tokens: 582, output_tokens_details: { reasoning_tokens: 512 }, total_tokens: 10045 }),
	).toEqual({ input: 1143, output: 582, cacheRead: 8320, cacheWrite: 0 });
});

it("counts missing or null fields as 0", () => {
	expect(parseUsage({})).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
	expect(parseUsage({ input_tokens: 5, input_tokens_details: null })).toEqual({ input: 5, output: 0, cacheRead: 0, cacheWrite: 0 });
	expect(parseUsage({ input_tokens: 5, input_tokens_details: { cached_tokens: null } })).toEqual({ input: 5, output: 0, cacheRead: 0, cacheWrite: 0 });
});
