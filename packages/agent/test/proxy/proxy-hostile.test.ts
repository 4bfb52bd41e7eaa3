import { type Api, type Context, createProviderStream, type Model, type SimpleStreamOptions } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { streamProxy } from "../../src/index.js";
import type { ProxyCallUsage } from "../../src/proxy/proxy-server.js";
import { gate } from "../helpers/collect.js";
import { APP_TOKEN, answeringStreamFn, type NodeProxy, proxyContext, proxyModel, startNodeProxy, validBody, watchProcess } from "./node-proxy.js";
import { postHead, rawExchange } from "./raw-http.js";

/**
 * Issue 25, items 1 to 5: handleProxyRequest behind the shipped Node adapter (toNodeHandler),
 * attacked over real sockets on 127.0.0.1.
 */

async function withNodeProxy(options: Parameters<typeof startNodeProxy>[0], body: (proxy: NodeProxy) => Promise<void>, onError?: (error: unknown) => void): Promise<void> {
	const proxy = await startNodeProxy(options, onError);
	try {
		await body(proxy);
	} finally {
		await proxy.close();
	}
}

async function post(proxy: NodeProxy, body: string): Promise<{ status: number; json: { error: string } }> {
	const response = await fetch(`${proxy.url}/api/stream`, { method: "POST", headers: { authorization: `Bearer ${APP_TOKEN}` }, body });
	return { status: response.status, json: (await response.json()) as { error: string } };
}

/** Waits until the proxy has answered `count` requests. */
async function answered(proxy: NodeProxy, count: number): Promise<void> {
	while (proxy.statuses.length < count) await new Promise((resolve) => setImmediate(resolve));
}

describe("1. a broken request never kills the server", () => {
	it("a body dropped before its content-length ends that request with 400, and the next request is served", async () => {
		const { crashes } = await watchProcess(() =>
			withNodeProxy({}, async (proxy) => {
				await rawExchange(proxy.port, [postHead(APP_TOKEN, { "content-length": 1000 }), "{", "drop"]);
				await answered(proxy, 1);
				expect(proxy.statuses).toEqual([400]);
				const next = await streamProxy(proxyModel, proxyContext, { authToken: APP_TOKEN, proxyUrl: proxy.url }).result();
				expect(next.stopReason).toBe("stop");
			}),
		);
		expect(crashes).toEqual([]);
	});

	it.each(["authorize", "resolveModel", "getApiKey"] as const)("a %s hook that throws answers 500 with the JSON error shape, naming the hook, not its message", async (hook) => {
		const failure = new Error("database down: password=hunter22");
		const told: unknown[] = [];
		const options = {
			[hook]: () => {
				throw failure;
			},
			onError: (error: unknown) => told.push(error),
		};
		const { crashes } = await watchProcess(() =>
			withNodeProxy(options, async (proxy) => {
				const answer = await post(proxy, validBody());
				expect(answer.status).toBe(500);
				expect(answer.json.error).toBe(`The proxy's ${hook} hook failed.`);
				expect(JSON.stringify(answer.json)).not.toContain("hunter22");
			}),
		);
		expect(told).toEqual([failure]);
		expect(crashes).toEqual([]);
	});

	it("a handler that rejects answers 500 through the adapter, and the adapter tells onError", async () => {
		const { toNodeHandler } = await import("../../src/proxy/proxy-server.js");
		const { createServer } = await import("node:http");
		const told: unknown[] = [];
		const server = createServer(toNodeHandler(() => Promise.reject(new Error("boom")), { onError: (error) => told.push(error) }));
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		const port = (server.address() as { port: number }).port;
		const response = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "x" });
		expect(response.status).toBe(500);
		expect(await response.json()).toEqual({ error: "Internal server error" });
		expect(told.map((error) => (error as Error).message)).toEqual(["boom"]);
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});
});

describe("2. a client that leaves stops the spending", () => {
	it("the model call's signal aborts when the browser disconnects mid-reply, and onUsage counts what was spent", async () => {
		const aborted = gate();
		const usage = gate<ProxyCallUsage>();
		let deltas = 0;
		const streamFn = (model: Model<Api>, _context: Context, options: SimpleStreamOptions) =>
			createProviderStream(model, options, async (builder) => {
				options.signal?.addEventListener("abort", () => aborted.resolve(), { once: true });
				const text = builder.startText();
				builder.setUsage({ input: 10, output: 0 });
				// A long reply: a token at a time until the call is aborted.
				while (!options.signal?.aborted) {
					builder.appendText(text, "token ");
					builder.setUsage({ input: 10, output: ++deltas });
					await new Promise((resolve) => setTimeout(resolve, 5));
				}
			});
		await withNodeProxy({ streamFn, onUsage: (call) => usage.resolve(call) }, async (proxy) => {
			const controller = new AbortController();
			const response = await fetch(`${proxy.url}/api/stream`, { method: "POST", headers: { authorization: `Bearer ${APP_TOKEN}` }, body: validBody(), signal: controller.signal });
			const reader = (response.body as ReadableStream<Uint8Array>).getReader();
			let seen = "";
			while (!seen.includes("text_delta")) seen += new TextDecoder().decode((await reader.read()).value);
			controller.abort();
			await aborted.promise;
			const call = await usage.promise;
			expect(call.stopReason).toBe("aborted");
			expect(call.usage.output).toBeGreaterThan(0);
			expect(call.token).toBe(APP_TOKEN);
		});
	});
});

describe("3. consumption is bounded by the operator", () => {
	it("allowModels refuses a catalog model that is not on the list (403)", async () => {
		await withNodeProxy({ resolveModel: (requested) => ({ ...proxyModel, id: requested.id }), allowModels: ["openai/gpt-4o-mini"] }, async (proxy) => {
			expect((await post(proxy, JSON.stringify({ model: { ...proxyModel, id: "o1-pro" }, context: proxyContext, options: {} }))).status).toBe(403);
			const allowed = await fetch(`${proxy.url}/api/stream`, { method: "POST", headers: { authorization: `Bearer ${APP_TOKEN}` }, body: validBody() });
			expect(allowed.status).toBe(200);
			await allowed.text();
		});
		await withNodeProxy({ allowModels: (model) => model.provider === "anthropic" }, async (proxy) => {
			expect((await post(proxy, validBody())).status).toBe(403);
		});
	});

	it("caps clamp maxTokens, reasoning, cache retention and thinking budgets by default", async () => {
		const seen: SimpleStreamOptions[] = [];
		await withNodeProxy({ streamFn: answeringStreamFn(seen), limits: { maxTokens: 1024, reasoning: "low", cacheRetention: "none" } }, async (proxy) => {
			for (const options of [{ maxTokens: 1_000_000, reasoning: "xhigh", cacheRetention: "long", thinkingBudgets: { high: 900_000 } }, {}]) {
				const response = await fetch(`${proxy.url}/api/stream`, { method: "POST", headers: { authorization: `Bearer ${APP_TOKEN}` }, body: validBody(options) });
				await response.text();
			}
		});
		expect(seen.map(({ maxTokens, reasoning, cacheRetention, thinkingBudgets }) => ({ maxTokens, reasoning, cacheRetention, thinkingBudgets }))).toEqual([
			{ maxTokens: 1024, reasoning: "low", cacheRetention: "none", thinkingBudgets: { high: 1024 } },
			{ maxTokens: 1024, reasoning: undefined, cacheRetention: "none", thinkingBudgets: undefined },
		]);
		// A model that cannot write more than the cap keeps the provider's own default.
		const small: SimpleStreamOptions[] = [];
		await withNodeProxy({ streamFn: answeringStreamFn(small), resolveModel: () => ({ ...proxyModel, maxTokens: 512 }), limits: { maxTokens: 1024 } }, async (proxy) => {
			await (await fetch(`${proxy.url}/api/stream`, { method: "POST", headers: { authorization: `Bearer ${APP_TOKEN}` }, body: validBody() })).text();
		});
		expect(small.map((options) => options.maxTokens)).toEqual([undefined]);
	});

	it("with exceed: refuse, a request over a cap answers 400 naming the option and the cap; malformed options are refused too", async () => {
		await withNodeProxy({ limits: { maxTokens: 1024, reasoning: "medium", cacheRetention: "short", exceed: "refuse" } }, async (proxy) => {
			expect(await post(proxy, validBody({ maxTokens: 4096 }))).toEqual({ status: 400, json: { error: "body.options.maxTokens 4096 is over this proxy's cap of 1024." } });
			expect(await post(proxy, validBody({ reasoning: "high" }))).toEqual({ status: 400, json: { error: 'body.options.reasoning "high" is over this proxy\'s cap of "medium".' } });
			expect(await post(proxy, validBody({ cacheRetention: "long" }))).toEqual({ status: 400, json: { error: 'body.options.cacheRetention "long" is over this proxy\'s cap of "short".' } });
			expect((await post(proxy, validBody({ maxTokens: "lots" }))).json.error).toBe("body.options.maxTokens must be a positive integer.");
			expect((await post(proxy, validBody({ reasoning: "ultra" }))).json.error).toContain("body.options.reasoning must be one of");
		});
	});

	it("onUsage sees each finished call's model, usage and cost", async () => {
		const calls: ProxyCallUsage[] = [];
		await withNodeProxy({ onUsage: (call) => void calls.push(call) }, async (proxy) => {
			const message = await streamProxy(proxyModel, proxyContext, { authToken: APP_TOKEN, proxyUrl: proxy.url }).result();
			expect(message.stopReason).toBe("stop");
			while (calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
		});
		expect(calls.map((call) => [call.model.id, call.stopReason, call.usage.input, call.usage.output])).toEqual([["gpt-4o-mini", "stop", 1000, 2000]]);
		expect(calls[0]?.usage.cost.total).toBeCloseTo((1000 * 0.15 + 2000 * 0.6) / 1e6, 12);
	});

	it("an onUsage that throws is told to onError and breaks nothing", async () => {
		const told: unknown[] = [];
		await withNodeProxy({ onUsage: () => Promise.reject(new Error("budget store down")), onError: (error) => void told.push(error) }, async (proxy) => {
			expect((await streamProxy(proxyModel, proxyContext, { authToken: APP_TOKEN, proxyUrl: proxy.url }).result()).stopReason).toBe("stop");
			while (told.length === 0) await new Promise((resolve) => setImmediate(resolve));
		});
		expect((told[0] as Error).message).toBe("budget store down");
	});
});

describe("4. a refused body does not stall the connection", () => {
	it("a 413 on a keep-alive connection closes it instead of leaving the unread body in front of the next request", async () => {
		await withNodeProxy({ maxBodyBytes: 100 }, async (proxy) => {
			const exchange = await rawExchange(proxy.port, [postHead(APP_TOKEN, { "content-length": 100_000, connection: "keep-alive" }), "x".repeat(5_000)]);
			expect(exchange.statuses).toEqual([413]);
			expect(exchange.text.toLowerCase()).toContain("connection: close");
			expect(exchange.closedByServer).toBe(true);
		});
	});

	it("handleProxyRequest itself answers 401 and 413 with connection: close, for any adapter, without reading the body", async () => {
		const { handleProxyRequest } = await import("../../src/proxy/proxy-server.js");
		let pulled = 0;
		const body = () => new ReadableStream<Uint8Array>({ pull: (controller) => void (++pulled < 100 ? controller.enqueue(new Uint8Array(1000)) : controller.close()) });
		const post = (token: string, headers: Record<string, string> = {}) =>
			new Request("http://127.0.0.1/api/stream", { method: "POST", headers: { authorization: `Bearer ${token}`, ...headers }, body: body(), duplex: "half" } as RequestInit);
		const options = { authorize: (token: string | undefined) => token === APP_TOKEN, maxBodyBytes: 100 };
		const refused = await handleProxyRequest(post("wrong"), options);
		expect([refused.status, refused.headers.get("connection")]).toEqual([401, "close"]);
		const declared = await handleProxyRequest(post(APP_TOKEN, { "content-length": "100000" }), options);
		expect([declared.status, declared.headers.get("connection")]).toEqual([413, "close"]);
		const streamed = await handleProxyRequest(post(APP_TOKEN), options);
		expect([streamed.status, streamed.headers.get("connection")]).toEqual([413, "close"]);
		// The streamed body was read only up to the limit.
		expect(pulled).toBeLessThan(5);
	});

	it("a 413 found while reading a chunked body closes the connection too", async () => {
		await withNodeProxy({ maxBodyBytes: 100 }, async (proxy) => {
			const chunk = "x".repeat(300);
			const exchange = await rawExchange(proxy.port, [postHead(APP_TOKEN, { "transfer-encoding": "chunked" }), `${chunk.length.toString(16)}\r\n${chunk}\r\n`]);
			expect(exchange.statuses).toEqual([413]);
			expect(exchange.closedByServer).toBe(true);
		});
	});
});

describe("5. deep nesting is refused before parsing", () => {
	it("a body nesting 4 million levels answers 400 naming the bound, without parsing it", async () => {
		const levels = 4_000_000;
		const deep = `{"model":${JSON.stringify(proxyModel)},"context":{"messages":[]},"options":{"metadata":${"[".repeat(levels)}${"]".repeat(levels)}}}`;
		await withNodeProxy({}, async (proxy) => {
			const answer = await post(proxy, deep);
			expect(answer.status).toBe(400);
			expect(answer.json.error).toMatch(/^The request body nests deeper than 512 levels \(at character \d+\)\.$/);
		});
	});

	it("the bound is an option, and brackets inside strings do not count", async () => {
		await withNodeProxy({ maxBodyDepth: 8 }, async (proxy) => {
			const text = await fetch(`${proxy.url}/api/stream`, { method: "POST", headers: { authorization: `Bearer ${APP_TOKEN}` }, body: validBody({ metadata: { note: '[[[[[[[[[[[[\\"{{{{{{{{' } }) });
			expect(text.status).toBe(200);
			await text.text();
			expect((await post(proxy, validBody({ metadata: { a: [[[[[[[1]]]]]]] } }))).json.error).toContain("nests deeper than 8 levels");
		});
	});
});
