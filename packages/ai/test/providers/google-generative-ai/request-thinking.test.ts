/** Golden request bodies: thinking settings of streamGoogle and the reasoning levels of streamSimpleGoogle. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import type { SimpleStreamOptions } from "../../../src/types.js";
import type { GoogleOptions } from "../../../src/providers/google-generative-ai.js";
import { capturedBody, capturedSimpleBody, geminiModel, HELLO } from "./helpers.js";

const CONTENTS = [{ role: "user", parts: [{ text: "Hello" }] }];

describe("google-generative-ai request: thinking", () => {
	let server: ReplayServer;
	beforeAll(async () => {
		server = await startReplayServer();
	});
	afterAll(() => server.close());

	const full: [model: string, thinking: GoogleOptions["thinking"], expected: object | undefined][] = [
		["gemini-2.5-flash", undefined, undefined],
		["gemini-2.5-flash", { enabled: true }, { includeThoughts: true }],
		["gemini-2.5-flash", { enabled: true, budgetTokens: 4000 }, { includeThoughts: true, thinkingBudget: 4000 }],
		["gemini-2.5-flash", { enabled: true, budgetTokens: 4000, level: "HIGH" }, { includeThoughts: true, thinkingBudget: 4000 }],
		["gemini-2.5-flash", { enabled: true, level: "LOW" }, { includeThoughts: true, thinkingBudget: 2048 }],
		["gemini-2.5-pro", { enabled: true, level: "MINIMAL" }, { includeThoughts: true, thinkingBudget: 1024 }],
		["gemini-2.5-flash", { enabled: false }, { thinkingBudget: 0 }],
		["gemini-2.5-pro", { enabled: false }, { thinkingBudget: 128 }],
		["gemini-3-pro-preview", { enabled: true, level: "LOW" }, { includeThoughts: true, thinkingLevel: "low" }],
		["gemini-3-pro-preview", { enabled: true, level: "HIGH", budgetTokens: 1000 }, { includeThoughts: true, thinkingLevel: "high" }],
		["gemini-3-pro-preview", { enabled: true, level: "THINKING_LEVEL_UNSPECIFIED" }, { includeThoughts: true }],
		["gemini-3-pro-preview", { enabled: true, budgetTokens: 1000 }, { includeThoughts: true, thinkingBudget: 1000 }],
		["gemini-3-pro-preview", { enabled: false }, { thinkingLevel: "low" }],
		["gemini-3-flash-preview", { enabled: false }, { thinkingLevel: "minimal" }],
	];
	for (const [id, thinking, expected] of full) {
		it(`streamGoogle ${id} thinking ${JSON.stringify(thinking)} → ${JSON.stringify(expected)}`, async () => {
			const body = await capturedBody(server, geminiModel(id), HELLO, thinking ? { thinking } : {});
			expect(body).toEqual(expected ? { contents: CONTENTS, generationConfig: { thinkingConfig: expected } } : { contents: CONTENTS });
		});
	}

	const simple: [model: string, options: SimpleStreamOptions, expected: object][] = [
		// Budget models: the level's default budget; the caller's maxTokens grows by it.
		["gemini-2.5-flash", { reasoning: "low", maxTokens: 1000 }, { maxOutputTokens: 3048, thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } }],
		["gemini-2.5-flash", { reasoning: "medium" }, { thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 } }],
		["gemini-2.5-flash", { reasoning: "xhigh" }, { thinkingConfig: { includeThoughts: true, thinkingBudget: 24576 } }],
		["gemini-2.5-pro", { reasoning: "xhigh", maxTokens: 60000 }, { maxOutputTokens: 65536, thinkingConfig: { includeThoughts: true, thinkingBudget: 32768 } }],
		["gemini-2.5-pro", { reasoning: "minimal", thinkingBudgets: { minimal: 64 } }, { thinkingConfig: { includeThoughts: true, thinkingBudget: 128 } }],
		["gemini-2.5-flash", { reasoning: "high", thinkingBudgets: { high: 5000 } }, { thinkingConfig: { includeThoughts: true, thinkingBudget: 5000 } }],
		["gemini-2.5-flash-lite", { reasoning: "minimal", thinkingBudgets: { minimal: 100 } }, { thinkingConfig: { includeThoughts: true, thinkingBudget: 512 } }],
		// No reasoning asked of a reasoning model: thinking as low as the model allows.
		["gemini-2.5-flash", { maxTokens: 500 }, { maxOutputTokens: 500, thinkingConfig: { thinkingBudget: 0 } }],
		["gemini-2.5-pro", {}, { thinkingConfig: { thinkingBudget: 128 } }],
		["gemini-3-pro-preview", {}, { thinkingConfig: { thinkingLevel: "low" } }],
		["gemini-3-flash-preview", {}, { thinkingConfig: { thinkingLevel: "minimal" } }],
		// Level models: the next level the model has, maxTokens untouched.
		["gemini-3-pro-preview", { reasoning: "minimal" }, { thinkingConfig: { includeThoughts: true, thinkingLevel: "low" } }],
		["gemini-3-pro-preview", { reasoning: "medium", maxTokens: 2000 }, { maxOutputTokens: 2000, thinkingConfig: { includeThoughts: true, thinkingLevel: "high" } }],
		["gemini-3-pro-preview", { reasoning: "xhigh" }, { thinkingConfig: { includeThoughts: true, thinkingLevel: "high" } }],
		["gemini-3.1-pro-preview", { reasoning: "medium" }, { thinkingConfig: { includeThoughts: true, thinkingLevel: "medium" } }],
		["gemini-3.1-pro-preview", { reasoning: "minimal" }, { thinkingConfig: { includeThoughts: true, thinkingLevel: "low" } }],
		["gemini-3-flash-preview", { reasoning: "minimal" }, { thinkingConfig: { includeThoughts: true, thinkingLevel: "minimal" } }],
		["gemini-3-flash-preview", { reasoning: "medium", temperature: 0.2 }, { temperature: 0.2, thinkingConfig: { includeThoughts: true, thinkingLevel: "medium" } }],
	];
	for (const [id, options, expected] of simple) {
		it(`streamSimpleGoogle ${id} ${JSON.stringify(options)} → ${JSON.stringify(expected)}`, async () => {
			expect(await capturedSimpleBody(server, geminiModel(id), HELLO, options)).toEqual({ contents: CONTENTS, generationConfig: expected });
		});
	}

	it("sends no thinking setting to a model without reasoning", async () => {
		const model = geminiModel("gemini-2.0-flash", { reasoning: false });
		expect(await capturedSimpleBody(server, model, HELLO, { reasoning: "high" })).toEqual({ contents: CONTENTS });
	});

	it("follows compat.thinkingControl for ids without a version", async () => {
		const model = geminiModel("gemini-flash-latest", { compat: { thinkingControl: "level" } });
		expect(await capturedSimpleBody(server, model, HELLO, { reasoning: "high" })).toEqual({
			contents: CONTENTS,
			generationConfig: { thinkingConfig: { includeThoughts: true, thinkingLevel: "high" } },
		});
		expect(await capturedSimpleBody(server, geminiModel("gemini-flash-latest"), HELLO, { reasoning: "high" })).toEqual({
			contents: CONTENTS,
			generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 16384 } },
		});
	});
});
