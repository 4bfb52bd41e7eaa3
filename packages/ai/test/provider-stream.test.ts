import { describe, expect, it } from "vitest";
import { createProviderStream } from "../src/provider-stream.js";
import type { AssistantMessageEvent, Model } from "../src/types.js";

const model: Model<"test-api"> = {
	id: "m",
	name: "M",
	api: "test-api",
	provider: "test",
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1,
	maxTokens: 1,
};

async function collect(stream: AsyncIterable<AssistantMessageEvent>) {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

describe("createProviderStream", () => {
	it("turns a rejection into an error message that keeps the content", async () => {
		const stream = createProviderStream(model, { apiKey: "sk-very-secret-value" }, async (builder) => {
			const text = builder.startText();
			builder.appendText(text, "kept");
			throw new Error("boom with sk-very-secret-value");
		});
		const events = await collect(stream);
		const message = await stream.result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("boom with [REDACTED]");
		expect(message.content).toEqual([{ type: "text", text: "kept" }]);
		expect(events.map((e) => e.type)).toEqual(["start", "text_start", "text_delta", "text_end", "error"]);
	});

	it("turns a synchronous throw into an error message", async () => {
		const stream = createProviderStream(model, undefined, () => {
			throw new TypeError("bad input");
		});
		expect((await stream.result()).errorMessage).toBe("bad input");
	});

	it("reports a provider that returns without finishing", async () => {
		const stream = createProviderStream(model, undefined, async () => {});
		const message = await stream.result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/without a stop reason/);
	});

	it("ends aborted at once when the signal aborts, without waiting for the provider", async () => {
		const controller = new AbortController();
		let release!: () => void;
		const stream = createProviderStream(model, { signal: controller.signal }, async (builder) => {
			const text = builder.startText();
			builder.appendText(text, "so far");
			await new Promise<void>((resolve) => {
				release = resolve;
			});
		});
		setTimeout(() => controller.abort(), 5);
		const message = await stream.result();
		expect(message.stopReason).toBe("aborted");
		expect(message.content).toEqual([{ type: "text", text: "so far" }]);
		release();
	});

	it("ends aborted when the signal was aborted before the call", async () => {
		const controller = new AbortController();
		controller.abort();
		let ran = false;
		const stream = createProviderStream(model, { signal: controller.signal }, async () => {
			ran = true;
		});
		const events = await collect(stream);
		expect(ran).toBe(false);
		expect(events.map((e) => e.type)).toEqual(["start", "error"]);
		expect((await stream.result()).stopReason).toBe("aborted");
	});
});

describe("lazily loaded built-in providers", () => {
	it("push their events straight into the returned stream on the first call, so partial state is current at push time", async () => {
		const { registerBuiltinApiProviders } = await import("../src/providers/register-builtins.js");
		const { clearApiProviders } = await import("../src/api-registry.js");
		const { stream } = await import("../src/stream.js");
		const { recordEvents, startReplayServer, sseResponse, loadFixture } = await import("../src/testing/index.js");
		clearApiProviders();
		registerBuiltinApiProviders();
		const server = await startReplayServer();
		try {
			server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
			const live = stream(
				{ ...model, api: "openai-completions", provider: "openai", baseUrl: server.url },
				{ messages: [{ role: "user", content: "hi", timestamp: 1 }] },
				{ apiKey: "sk-test-key-123456" },
			);
			const recorded = await recordEvents(live);
			expect(recorded.message.stopReason).toBe("stop");
			const states = recorded.partialStates.slice(0, -1).map((state) => state?.stopReason);
			expect(states.length).toBeGreaterThan(3);
			expect(new Set(states)).toEqual(new Set(["pending"]));
		} finally {
			await server.close();
		}
	});
});
