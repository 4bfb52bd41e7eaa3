/**
 * The three entry points and the registry: a custom API takes part through `streamDeferred` and
 * `cancelDeferred` on its `ApiProvider`; an API that cannot defer says so by name and never sends
 * a normal request instead; a bad handle is refused with the field at fault.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerApiProvider, unregisterApiProviders } from "../../src/api-registry.js";
import { createProviderStream } from "../../src/provider-stream.js";
import { complete } from "../../src/stream.js";
import { cancelDeferred, fetchDeferred, streamDeferred } from "../../src/stream-deferred.js";
import { type ReplayServer, startReplayServer } from "../../src/testing/index.js";
import type { DeferredHandle, Model } from "../../src/types.js";
import { HELLO, KEY, responsesModel } from "./helpers.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

const customModel = { ...responsesModel({ url: "http://127.0.0.1:9" } as ReplayServer), api: "my-jobs", provider: "me", id: "m1" } as unknown as Model<"my-jobs">;

describe("a custom API", () => {
	it("redeems and cancels through its ApiProvider members", async () => {
		const cancelled: string[] = [];
		registerApiProvider(
			{
				api: "my-jobs",
				stream: (model) => createProviderStream(model, {}, async (builder) => void builder.finish("deferred", { deferred: { provider: "me", api: "my-jobs", modelId: model.id, id: "job-1" } })),
				streamSimple: (model) => createProviderStream(model, {}, async (builder) => void builder.finish("stop")),
				streamDeferred: (model, handle) =>
					createProviderStream(model, {}, async (builder) => {
						const index = builder.startText();
						builder.appendText(index, `finished ${handle.id}`);
						builder.finish("stop");
					}),
				cancelDeferred: async (_model, handle) => {
					cancelled.push(handle.id);
				},
			},
			"deferred-test",
		);
		try {
			const placeholder = await complete(customModel, HELLO);
			expect(placeholder.stopReason).toBe("deferred");
			const handle = JSON.parse(JSON.stringify(placeholder.deferred)) as DeferredHandle;
			const message = await fetchDeferred(customModel, handle);
			expect(message.content).toEqual([{ type: "text", text: "finished job-1" }]);
			await cancelDeferred(customModel, handle);
			expect(cancelled).toEqual(["job-1"]);
		} finally {
			unregisterApiProviders("deferred-test");
		}
	});

	it("refuses a streamDeferred member that is not a function", () => {
		expect(() =>
			registerApiProvider({ api: "broken", stream: () => null as never, streamSimple: () => null as never, streamDeferred: 42 as never }, "deferred-test"),
		).toThrow(/streamDeferred/);
	});
});

describe("an API that cannot defer", () => {
	const completions = { ...customModel, api: "openai-completions", provider: "openai", baseUrl: "" } as unknown as Model<"openai-completions">;

	it("ends a deferred request with an error naming the API, sending nothing", async () => {
		const model = { ...completions, baseUrl: `${server.url}/v1` };
		const message = await complete(model, HELLO, { apiKey: KEY, deferred: true });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain('"openai-completions" API cannot defer');
		expect(server.requests).toHaveLength(0);
	});

	it("cannot redeem or cancel a handle, saying so", async () => {
		const handle: DeferredHandle = { provider: "openai", api: "openai-completions", modelId: "m1", id: "x" };
		const message = await streamDeferred(completions, handle).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain('"openai-completions" API cannot redeem');
		await expect(cancelDeferred(completions, handle)).rejects.toThrow(/cannot cancel/);
	});
});

describe("a bad handle", () => {
	const model = responsesModel({ url: "http://127.0.0.1:9" } as ReplayServer);
	it.each([
		[null, /must be an object/],
		[{ provider: "openai", api: "openai-responses", model: "gpt-5", id: "r" }, /handle\.modelId .*rename it to `modelId`/],
		[{ provider: "openai", api: "openai-responses", modelId: "gpt-5", id: "" }, /handle\.id/],
		[{ provider: "openai", api: "openai-responses", modelId: "gpt-5", id: "r", pollAfterMs: -1 }, /handle\.pollAfterMs/],
		[{ provider: "anthropic", api: "anthropic-messages", modelId: "c", id: "r" }, /belongs to api "anthropic-messages"/],
	])("%j is refused, naming the field", async (handle, words) => {
		const message = await streamDeferred(model, handle as DeferredHandle).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(words);
	});
});
