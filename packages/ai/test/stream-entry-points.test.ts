import { describe, expect, it } from "vitest";
import { complete, completeSimple, stream } from "../src/stream.js";
import { registerApiProvider, unregisterApiProviders } from "../src/api-registry.js";
import type { Model } from "../src/types.js";

const model: Model<"nowhere"> = {
	id: "m",
	name: "m",
	api: "nowhere",
	provider: "p",
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1,
	maxTokens: 1,
};
const context = { messages: [] };

describe("entry points", () => {
	it("turn an unknown api into an error stream, never a throw", async () => {
		const s = stream(model, context);
		const types: string[] = [];
		for await (const event of s) types.push(event.type);
		expect(types).toEqual(["start", "error"]);
		const message = await s.result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe('No API provider registered for api "nowhere" (model "m").');
	});

	it("turn a provider that throws synchronously into an error message without the key", async () => {
		registerApiProvider(
			{
				api: "nowhere",
				stream: () => {
					throw new Error("exploded with key sk-abcdefghijkl");
				},
				streamSimple: () => {
					throw new Error("simple exploded");
				},
			},
			"test-throwing",
		);
		try {
			const message = await complete(model, context, { apiKey: "sk-abcdefghijkl" });
			expect(message.errorMessage).toBe("exploded with key [REDACTED]");
			expect((await completeSimple(model, context)).errorMessage).toBe("simple exploded");
		} finally {
			unregisterApiProviders("test-throwing");
		}
	});

	it("reject a registration without stream functions, naming the api", () => {
		expect(() => registerApiProvider({ api: "x" } as never)).toThrow(/"x" needs both `stream` and `streamSimple`/);
	});
});

describe("bad input", () => {
	it("gets an error message that says what is wrong and where, as a stream, never a throw", async () => {
		const { registerFauxProvider } = await import("../src/providers/faux.js");
		const faux = registerFauxProvider();
		try {
			const fauxModel = faux.getModel();
			const cases: [unknown, string][] = [
				[undefined, "stream: `context.messages` must be an array of messages"],
				[{ messages: "hi" }, "stream: `context.messages` must be an array of messages"],
				[{ messages: [null] }, "stream: context.messages[0] is not a message object"],
				[
					{ messages: [{ role: "user", content: "a", timestamp: 1 }, { role: "system", content: "be terse", timestamp: 1 }] },
					'stream: context.messages[1] has role "system"; expected "user", "assistant" or "toolResult" (put the system prompt in `context.systemPrompt`)',
				],
				[{ messages: [{ role: "user", timestamp: 1 }] }, "stream: context.messages[0].content must be a string or an array of content blocks"],
				[{ messages: [], tools: {} }, "stream: `context.tools` must be an array when given"],
			];
			for (const [context, expected] of cases) {
				const message = await complete(fauxModel, context as never);
				expect(message.stopReason).toBe("error");
				expect(message.errorMessage).toBe(expected);
			}
			expect(faux.state.callCount).toBe(0);
		} finally {
			faux.unregister();
		}
	});
});
