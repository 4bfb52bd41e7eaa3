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
