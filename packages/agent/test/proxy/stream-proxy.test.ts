import {
	type Api,
	type AssistantMessage,
	type Context,
	createProviderStream,
	type Model,
	type SimpleStreamOptions,
	streamSimple,
} from "@pi/ai";
import { assertEventProtocol, type ReplayServer, recordEvents, sseResponse, startReplayServer } from "@pi/ai/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, streamProxy } from "../../src/index.js";
import { handleProxyRequest, type ProxyServerOptions } from "../../src/proxy/proxy-server.js";
import { gate } from "../helpers/collect.js";
import { type FetchHandlerServer, serveFetchHandler } from "../helpers/fetch-handler-server.js";

/**
 * streamProxy (browser side) against handleProxyRequest (server side) over real HTTP: node:http
 * on 127.0.0.1 for the proxy, the replay server for the provider behind it.
 */

const APP_TOKEN = "app-token-123";
const PROVIDER_KEY = "sk-server-only-secret";

let provider: ReplayServer;
beforeAll(async () => {
	provider = await startReplayServer();
});
afterAll(() => provider.close());

/** The model as the browser knows it: its baseUrl is not used by the server. */
const clientModel: Model<"openai-completions"> = {
	id: "gpt-4o-mini", name: "GPT-4o mini", api: "openai-completions", provider: "openai", baseUrl: "https://evil.example/v1",
	reasoning: false, input: ["text"], cost: { input: 0.15, output: 0.6, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128_000, maxTokens: 16_384,
};
const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "Hi", timestamp: 1 }] };
// `model` is the dated snapshot OpenAI answers an alias with: the message's `responseModel`.
const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
	`data: ${JSON.stringify({ id: "chatcmpl-1", model: "gpt-4o-mini-2024-07-18", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const reply = [
	chunk({ content: "Hel" }),
	chunk({ content: "lo" }),
	chunk({ tool_calls: [{ index: 0, id: "call_1", function: { name: "lookup", arguments: '{"q":' } }] }),
	chunk({ tool_calls: [{ index: 0, function: { arguments: '"pi"}' } }] }, "tool_calls"),
	`data: ${JSON.stringify({ id: "chatcmpl-1", choices: [], usage: { prompt_tokens: 12, completion_tokens: 7 } })}\n\n`,
	"data: [DONE]\n\n",
].join("");

async function withProxy(options: Partial<ProxyServerOptions>, body: (proxy: FetchHandlerServer) => Promise<void>): Promise<void> {
	const proxy = await serveFetchHandler((request) =>
		handleProxyRequest(request, {
			authorize: (token) => token === APP_TOKEN,
			// The server's own model: same provider and id, its own baseUrl.
			resolveModel: (requested) => (requested.id === clientModel.id ? { ...clientModel, baseUrl: `${provider.url}/v1` } : undefined),
			getApiKey: () => PROVIDER_KEY,
			...options,
		}),
	);
	try {
		await body(proxy);
	} finally {
		await proxy.close();
	}
}

describe("streamProxy end to end", () => {
	it("replays the server's events into the same message a direct call gives", async () => {
		provider.reset();
		provider.enqueue(sseResponse(reply), sseResponse(reply));
		const direct = await streamSimple({ ...clientModel, baseUrl: `${provider.url}/v1` }, context, { apiKey: PROVIDER_KEY }).result();
		await withProxy({}, async (proxy) => {
			const recorded = await recordEvents(streamProxy(clientModel, context, { authToken: APP_TOKEN, proxyUrl: proxy.url, temperature: 0.2 }));
			assertEventProtocol(recorded);
			const { timestamp: _a, ...viaProxy } = recorded.message;
			const { timestamp: _b, ...expected } = direct;
			expect(viaProxy).toEqual({ ...expected, rawStopReason: "tool_calls" });
			expect(viaProxy.responseModel).toBe("gpt-4o-mini-2024-07-18");
			expect(recorded.events.map((e) => e.type)).toEqual([
				"start", "text_start", "text_delta", "text_delta", "text_end", "toolcall_start", "toolcall_delta", "toolcall_delta", "toolcall_end", "done",
			]);
		});
		// The provider got the server's key and the forwarded option; the browser never had the key.
		const proxied = provider.requests[1]!;
		expect(proxied.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
		expect(proxied.json).toMatchObject({ model: "gpt-4o-mini", temperature: 0.2 });
	});

	it("keeps signatures, redacted thinking, the response id and the answering model", async () => {
		const streamFn = (model: Model<Api>, _context: Context, options: SimpleStreamOptions) =>
			createProviderStream(model, options, async (builder) => {
				const thinking = builder.startThinking({ signature: "sig-think" });
				builder.appendThinking(thinking, "Let me think.");
				builder.end(thinking);
				const redacted = builder.startThinking({ redacted: true, signature: "opaque" });
				builder.end(redacted);
				const text = builder.startText("text-sig");
				builder.appendText(text, "Answer.");
				builder.end(text);
				const call = builder.startToolCall("call_9", "search", "thought-sig");
				builder.appendToolCallArguments(call, '{"q":"x"}');
				builder.setResponseId("resp_42");
				builder.setResponseModel("gpt-4o-mini-2024-07-18");
				builder.setUsage({ input: 3, output: 4 });
				builder.finish("toolUse");
			});
		let serverMessage: AssistantMessage | undefined;
		await withProxy(
			{
				streamFn: (model, ctx, options) => {
					const stream = streamFn(model, ctx, options);
					void stream.result().then((message) => (serverMessage = message));
					return stream;
				},
			},
			async (proxy) => {
				const message = await streamProxy(clientModel, context, { authToken: APP_TOKEN, proxyUrl: proxy.url }).result();
				expect(message.content).toEqual(serverMessage?.content);
				expect(message.content).toEqual([
					{ type: "thinking", thinking: "Let me think.", thinkingSignature: "sig-think" },
					{ type: "thinking", thinking: "", thinkingSignature: "opaque", redacted: true },
					{ type: "text", text: "Answer.", textSignature: "text-sig" },
					{ type: "toolCall", id: "call_9", name: "search", arguments: { q: "x" }, thoughtSignature: "thought-sig" },
				]);
				expect(message).toMatchObject({ stopReason: "toolUse", responseId: "resp_42", responseModel: "gpt-4o-mini-2024-07-18", usage: { input: 3, output: 4, totalTokens: 7 } });
			},
		);
	});

	it("drives an Agent: the browser-side agent runs through the proxy", async () => {
		provider.reset();
		provider.enqueue(sseResponse([chunk({ content: "Proxied hello" }, "stop"), "data: [DONE]\n\n"].join("")));
		await withProxy({}, async (proxy) => {
			const agent = new Agent({
				initialState: { model: clientModel },
				streamFn: (model, ctx, options) => streamProxy(model, ctx, { ...options, authToken: APP_TOKEN, proxyUrl: proxy.url }),
			});
			await agent.prompt("Hi");
			const last = agent.state.messages.at(-1) as AssistantMessage;
			expect(last.content).toEqual([{ type: "text", text: "Proxied hello" }]);
			expect(last.stopReason).toBe("stop");
		});
	});
});

describe("streamProxy errors", () => {
	it("a wrong app token ends as an error with the server's message, without the token", async () => {
		await withProxy({}, async (proxy) => {
			const message = await streamProxy(clientModel, context, { authToken: "wrong-token", proxyUrl: proxy.url }).result();
			expect(message.stopReason).toBe("error");
			expect(message.errorMessage).toContain("401");
			expect(message.errorMessage).toContain("Unauthorized");
			expect(message.errorMessage).not.toContain("wrong-token");
		});
	});

	it("a model the server does not offer is refused (403), whatever baseUrl the client sends", async () => {
		await withProxy({}, async (proxy) => {
			const message = await streamProxy({ ...clientModel, id: "gpt-x" }, context, { authToken: APP_TOKEN, proxyUrl: proxy.url }).result();
			expect(message).toMatchObject({ stopReason: "error" });
			expect(message.errorMessage).toContain('Model "openai/gpt-x" is not available through this proxy.');
		});
	});

	it("a provider failure reaches the client as an error message, without the provider key", async () => {
		provider.reset();
		provider.enqueue({ status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: `bad key ${PROVIDER_KEY}` } }) });
		await withProxy({}, async (proxy) => {
			const recorded = await recordEvents(streamProxy(clientModel, context, { authToken: APP_TOKEN, proxyUrl: proxy.url }));
			assertEventProtocol(recorded);
			expect(recorded.message.stopReason).toBe("error");
			expect(recorded.message.errorMessage).toContain("bad key");
			expect(recorded.message.errorMessage).not.toContain(PROVIDER_KEY);
		});
	});

	it("an unreachable proxy ends as an error", async () => {
		const message = await streamProxy(clientModel, context, { authToken: APP_TOKEN, proxyUrl: "http://127.0.0.1:9" }).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBeTruthy();
	});

	it("a stream cut off by the server ends as an error, keeping the text so far", async () => {
		const streamFn = (model: Model<Api>, _c: Context, options: SimpleStreamOptions) =>
			createProviderStream(model, options, async (builder) => {
				const text = builder.startText();
				builder.appendText(text, "partial");
				throw new Error("upstream broke");
			});
		await withProxy({ streamFn }, async (proxy) => {
			const message = await streamProxy(clientModel, context, { authToken: APP_TOKEN, proxyUrl: proxy.url }).result();
			expect(message).toMatchObject({ stopReason: "error", errorMessage: "upstream broke", content: [{ type: "text", text: "partial" }] });
		});
	});
});

describe("streamProxy abort", () => {
	it("aborting ends the client stream as aborted with its content, and aborts the server's model call", async () => {
		const started = gate();
		const serverSignal = gate<AbortSignal>();
		const serverAborted = gate();
		const streamFn = (model: Model<Api>, _c: Context, options: SimpleStreamOptions) => {
			serverSignal.resolve(options.signal!);
			options.signal!.addEventListener("abort", () => serverAborted.resolve(), { once: true });
			return createProviderStream(model, options, async (builder) => {
				const text = builder.startText();
				builder.appendText(text, "first words");
				started.resolve();
				await new Promise<void>((resolve) => options.signal!.addEventListener("abort", () => resolve(), { once: true }));
			});
		};
		await withProxy({ streamFn }, async (proxy) => {
			const controller = new AbortController();
			const stream = streamProxy(clientModel, context, { authToken: APP_TOKEN, proxyUrl: proxy.url, signal: controller.signal });
			for await (const event of stream) {
				if (event.type === "text_delta") break;
			}
			await started.promise;
			controller.abort();
			const message = await stream.result();
			expect(message.stopReason).toBe("aborted");
			expect(message.content).toEqual([{ type: "text", text: "first words" }]);
			await serverAborted.promise;
			expect((await serverSignal.promise).aborted).toBe(true);
		});
	});
});

describe("handleProxyRequest input checks", () => {
	const post = async (proxy: FetchHandlerServer, body: string, init: RequestInit = {}) => {
		const response = await fetch(`${proxy.url}/api/stream`, { method: "POST", headers: { authorization: `Bearer ${APP_TOKEN}` }, body, ...init });
		return { status: response.status, json: (await response.json()) as { error: string } };
	};
	it.each([
		["not JSON", "{", "The request body is not JSON"],
		["no model", JSON.stringify({ context }), "body.model must be an object"],
		["no messages", JSON.stringify({ model: clientModel, context: {} }), "body.context must be an object with a `messages` array"],
		["a bad message", JSON.stringify({ model: clientModel, context: { messages: [{ role: "system" }] } }), "body.context.messages[0]"],
	])("400 for %s, naming the field", async (_name, body, error) => {
		await withProxy({}, async (proxy) => {
			const answer = await post(proxy, body);
			expect(answer.status).toBe(400);
			expect(answer.json.error).toContain(error);
		});
	});
	it("405 for GET and 413 for a body over the limit", async () => {
		await withProxy({ maxBodyBytes: 100 }, async (proxy) => {
			const get = await fetch(`${proxy.url}/api/stream`, { headers: { authorization: `Bearer ${APP_TOKEN}` } });
			expect(get.status).toBe(405);
			expect((await post(proxy, "x".repeat(500))).status).toBe(413);
		});
	});
	it("refuses to start without authorize", async () => {
		await expect(handleProxyRequest(new Request("http://x/api/stream", { method: "POST" }), {} as ProxyServerOptions)).rejects.toThrow(/authorize is required/);
	});
});

describe("streamProxy with structured output", () => {
	it("forwards `output`: the server asks the provider for the schema, the browser gets partialOutput and the validated output", async () => {
		const json = '{"city":"Paris","days":[1,2]}';
		const jsonReply = [chunk({ content: json.slice(0, 12) }), chunk({ content: json.slice(12) }, "stop"), "data: [DONE]\n\n"].join("");
		provider.reset();
		provider.enqueue(sseResponse(jsonReply));
		const schema = { type: "object", properties: { city: { type: "string" }, days: { type: "array", items: { type: "integer" } } }, required: ["city", "days"] };
		await withProxy({}, async (proxy) => {
			const events = streamProxy(clientModel, context, { authToken: APP_TOKEN, proxyUrl: proxy.url, output: { schema: schema as never, name: "trip" } });
			const partials: unknown[] = [];
			for await (const event of events) if (event.type === "text_delta") partials.push(structuredClone(event.partialOutput));
			const message = await events.result();
			expect(message.stopReason).toBe("stop");
			expect(message.output).toEqual({ city: "Paris", days: [1, 2] });
			expect(partials).toEqual([{ city: "Par" }, { city: "Paris", days: [1, 2] }]);
			const sent = provider.requests[0]?.json as { response_format?: { json_schema: { name: string } } };
			expect(sent.response_format?.json_schema.name).toBe("trip");
		});
	});
});
