import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as ai from "../../src/index.js";
import { type ReplayServer, recordEvents, sseResponse, startReplayServer } from "../../src/testing/index.js";
import type { AssistantMessage, Context, Model } from "../../src/types.js";

/** The reference's runtime names on the main entry, each doing what the reference's does. */

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());
afterEach(() => ai.resetApiProviders());

const context: Context = { messages: [{ role: "user", content: "Hi", timestamp: 0 }] };
const completions = (baseUrl: string): Model<"openai-completions"> => ({
	id: "gpt-4o-mini", name: "m", api: "openai-completions", provider: "openai", baseUrl, reasoning: false, input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128_000, maxTokens: 4096,
});
const sse = (...payloads: unknown[]) => payloads.map((p) => `data: ${typeof p === "string" ? p : JSON.stringify(p)}\n\n`).join("");

describe("per-provider stream functions", () => {
	it("streamOpenAICompletions loads its provider on first call and streams", async () => {
		server.reset();
		server.enqueue(sseResponse(sse({ choices: [{ index: 0, delta: { content: "Hello" }, finish_reason: "stop" }] }, "[DONE]")));
		const first = await recordEvents(ai.streamOpenAICompletions(completions(`${server.url}/v1`), context, { apiKey: "sk-test" }));
		expect(first.message.content).toEqual([{ type: "text", text: "Hello" }]);
		expect(first.message.stopReason).toBe("stop");
		server.enqueue(sseResponse(sse({ choices: [{ index: 0, delta: { content: "Again" }, finish_reason: "stop" }] }, "[DONE]")));
		const second = await ai.streamSimpleOpenAICompletions(completions(`${server.url}/v1`), context, { apiKey: "sk-test" }).result();
		expect(second.content).toEqual([{ type: "text", text: "Again" }]);
		expect(server.requests.map((r) => r.path)).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
	});

	it.each([
		["streamAzureOpenAIResponses", "openai-responses"],
		["streamGoogleVertex", "google-generative-ai"],
		["streamMistral", "openai-completions"],
		["streamOpenAICodexResponses", "OAuth"],
	] as const)("%s ends with an error that says what to use instead", async (name, advice) => {
		const model = { ...completions("http://127.0.0.1:9"), api: "x" } as unknown as Model<never>;
		const message: AssistantMessage = await (ai[name] as (m: Model<never>, c: Context) => ai.AssistantMessageEventStream)(model, context).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain(`${name} is not available in @pi/ai`);
		expect(message.errorMessage).toContain(advice);
	});
});

describe("registry", () => {
	it("registerBuiltInApiProviders is the reference's spelling; the old one is an alias", () => {
		expect(ai.registerBuiltinApiProviders).toBe(ai.registerBuiltInApiProviders);
		ai.clearApiProviders();
		expect(ai.getApiProvider("anthropic-messages")).toBeUndefined();
		ai.registerBuiltInApiProviders();
		expect(ai.getApiProviders().map((p) => p.api).sort()).toEqual(["anthropic-messages", "google-generative-ai", "openai-completions", "openai-responses"]);
	});

	it("resetApiProviders drops the user's providers and brings back the built-ins", () => {
		const mine = () => ai.createAssistantMessageEventStream();
		ai.registerApiProvider({ api: "openai-completions", stream: mine, streamSimple: mine }, "mine");
		ai.registerApiProvider({ api: "my-api", stream: mine, streamSimple: mine }, "mine");
		ai.resetApiProviders();
		expect(ai.getApiProvider("my-api")).toBeUndefined();
		expect(ai.getApiProvider("openai-completions")?.stream).not.toBe(mine);
	});

	it("setBedrockProviderModule registers the module's streams for bedrock-converse-stream", async () => {
		const done = (text: string): AssistantMessage => ({
			role: "assistant", content: [{ type: "text", text }], api: "bedrock-converse-stream", provider: "amazon-bedrock", model: "claude",
			usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
			stopReason: "stop", timestamp: 0,
		});
		ai.setBedrockProviderModule({
			async *streamBedrock() {
				yield { type: "start", partial: done("") };
				yield { type: "done", reason: "stop", message: done("full") };
			},
			async *streamSimpleBedrock() {
				throw new Error("no credentials");
			},
		});
		const model = { ...completions("http://127.0.0.1:9"), api: "bedrock-converse-stream", provider: "amazon-bedrock" } as Model<"bedrock-converse-stream">;
		expect((await ai.stream(model, context).result()).content).toEqual([{ type: "text", text: "full" }]);
		const failed = await ai.streamSimple(model, context).result();
		expect(failed).toMatchObject({ stopReason: "error", errorMessage: "no credentials" });
		expect(() => ai.setBedrockProviderModule({} as never)).toThrow(/streamBedrock/);
	});
});

describe("thinking levels", () => {
	const reasoning = (thinkingLevelMap?: ai.ThinkingLevelMap) => ({ ...completions("http://x"), reasoning: true, thinkingLevelMap });
	it("lists the supported levels; xhigh only when mapped", () => {
		expect(ai.getSupportedThinkingLevels({ ...completions("http://x"), reasoning: false })).toEqual(["off"]);
		expect(ai.getSupportedThinkingLevels(reasoning())).toEqual(["off", "minimal", "low", "medium", "high"]);
		expect(ai.getSupportedThinkingLevels(reasoning({ off: null, xhigh: "max" }))).toEqual(["minimal", "low", "medium", "high", "xhigh"]);
	});
	it("clamps up first, then down", () => {
		const qwen = ai.getModel("groq", "qwen/qwen3-32b");
		expect(ai.clampThinkingLevel(qwen, "low")).toBe("high");
		expect(ai.clampThinkingLevel(qwen, "xhigh")).toBe("high");
		expect(ai.clampThinkingLevel(qwen, "off")).toBe("off");
		expect(ai.clampThinkingLevel(reasoning({ off: null }), "off")).toBe("minimal");
	});
	it("catalog models carry the checked per-model levels", () => {
		expect(ai.getSupportedThinkingLevels(ai.getModel("anthropic", "claude-opus-4-6"))).toContain("xhigh");
		expect(ai.getSupportedThinkingLevels(ai.getModel("google", "gemini-3.1-pro-preview"))).toEqual(["low", "high"]);
		expect(ai.getSupportedThinkingLevels(ai.getModel("openai", "gpt-5"))).not.toContain("off");
	});
});

describe("small helpers", () => {
	it("repairJson escapes control characters and stray backslashes inside strings only", () => {
		expect(ai.repairJson('{"a": "x\ny", "b": 1}')).toBe('{"a": "x\\ny", "b": 1}');
		expect(ai.repairJson('{"p": "C:\\Users"}')).toBe('{"p": "C:\\\\Users"}');
		expect(ai.repairJson('{"u": "\\u00e9 \\uZZ"}')).toBe('{"u": "\\u00e9 \\\\uZZ"}');
		const valid = '{"ok": "\\n\\t\\"", "n": [1, 2]}';
		expect(ai.repairJson(valid)).toBe(valid);
	});
	it("parseJsonWithRepair parses what JSON.parse rejects, and rethrows what it cannot repair", () => {
		expect(ai.parseJsonWithRepair<{ t: string }>('{"t": "tab\there"}')).toEqual({ t: "tab\there" });
		expect(() => ai.parseJsonWithRepair("{oops")).toThrow(SyntaxError);
	});
	it("getOverflowPatterns returns a copy of the patterns isContextOverflow uses", () => {
		const patterns = ai.getOverflowPatterns();
		expect(patterns).toEqual([...ai.CONTEXT_OVERFLOW_PATTERNS]);
		patterns.length = 0;
		expect(ai.getOverflowPatterns().length).toBeGreaterThan(0);
	});
	it("findEnvKeys names the set variables only", () => {
		const saved = { g: process.env.GEMINI_API_KEY, k: process.env.GOOGLE_API_KEY };
		process.env.GEMINI_API_KEY = "";
		process.env.GOOGLE_API_KEY = "x";
		try {
			expect(ai.findEnvKeys("google")).toEqual(["GOOGLE_API_KEY"]);
			delete process.env.GOOGLE_API_KEY;
			expect(ai.findEnvKeys("google")).toBeUndefined();
			expect(ai.findEnvKeys("no-such-provider")).toBeUndefined();
		} finally {
			for (const [name, value] of [["GEMINI_API_KEY", saved.g], ["GOOGLE_API_KEY", saved.k]] as const) {
				if (value === undefined) delete process.env[name];
				else process.env[name] = value;
			}
		}
	});
	it("diagnostics keep plain error fields and append without mutating earlier arrays", () => {
		const error = Object.assign(new Error("reset"), { code: "ECONNRESET" });
		const note = ai.createAssistantMessageDiagnostic("retry", error, { attempt: 1 });
		expect(note).toMatchObject({ type: "retry", error: { name: "Error", message: "reset", code: "ECONNRESET" }, details: { attempt: 1 } });
		expect(ai.extractDiagnosticError("boom")).toEqual({ name: "ThrownValue", message: "boom" });
		expect(ai.formatThrownValue(Object.assign(new Error(""), { name: "AbortError" }))).toBe("AbortError");
		const message: { diagnostics?: ai.AssistantMessageDiagnostic[] } = {};
		ai.appendAssistantMessageDiagnostic(message, note);
		const before = message.diagnostics;
		ai.appendAssistantMessageDiagnostic(message, note);
		expect(before).toHaveLength(1);
		expect(message.diagnostics).toHaveLength(2);
	});
	it("session cleanups all run, then their failures are thrown together", () => {
		const seen: (string | undefined)[] = [];
		const offA = ai.registerSessionResourceCleanup((id) => seen.push(`a:${id}`));
		const offB = ai.registerSessionResourceCleanup(() => {
			throw new Error("b failed");
		});
		const offC = ai.registerSessionResourceCleanup((id) => seen.push(`c:${id}`));
		expect(() => ai.cleanupSessionResources("s1")).toThrow(AggregateError);
		expect(seen).toEqual(["a:s1", "c:s1"]);
		offB();
		ai.cleanupSessionResources();
		expect(seen).toEqual(["a:s1", "c:s1", "a:undefined", "c:undefined"]);
		offA();
		offC();
	});
	it("transformMessages takes the reference's normaliser function as third argument", () => {
		const model = { ...completions("http://x"), provider: "anthropic", api: "anthropic-messages", compat: undefined } as Model<"anthropic-messages">;
		const call: AssistantMessage = {
			role: "assistant", content: [{ type: "toolCall", id: "call|weird", name: "t", arguments: {} }], api: "openai-responses", provider: "openai",
			model: "gpt-5", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
			stopReason: "toolUse", timestamp: 0,
		};
		const seen: string[] = [];
		const out = ai.transformMessages(
			[call, { role: "toolResult", toolCallId: "call|weird", toolName: "t", content: [], isError: false, timestamp: 0 }],
			model,
			(id, target, source) => {
				seen.push(`${target.provider}<-${source.provider}`);
				return id.replace(/[^a-zA-Z0-9_-]/g, "_");
			},
		);
		expect(seen).toEqual(["anthropic<-openai"]);
		expect(out.map((m) => (m.role === "toolResult" ? m.toolCallId : m.role === "assistant" && m.content[0]?.type === "toolCall" ? m.content[0].id : ""))).toEqual(["call_weird", "call_weird"]);
	});
});

describe("Type and StringEnum", () => {
	it("StringEnum is a plain string enum schema that typebox validates", async () => {
		const schema = ai.StringEnum(["add", "subtract"], { description: "op" });
		expect(JSON.parse(JSON.stringify(schema))).toEqual({ type: "string", enum: ["add", "subtract"], description: "op" });
		const { Value } = await import("typebox/value");
		expect(Value.Check(schema, "add")).toBe(true);
		expect(Value.Check(schema, "divide")).toBe(false);
	});
	it("Type builds the same schemas as typebox's own Type", async () => {
		const { Type } = await import("typebox");
		const ours = ai.Type.Object({ city: ai.Type.String(), days: ai.Type.Optional(ai.Type.Integer()) });
		const theirs = Type.Object({ city: Type.String(), days: Type.Optional(Type.Integer()) });
		expect(ours).toEqual(theirs);
		expect("Object" in ai.Type).toBe(true);
		expect(await ai.loadTypebox()).toBe(Type);
	});
});
