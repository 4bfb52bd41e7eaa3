/**
 * Measures how far `estimateContextTokens` is from the token counts providers report, on the
 * recorded captures and on generated agent sessions. Shared by estimator-accuracy.test.ts (which
 * asserts the bounds) and bench/src/estimator-accuracy.ts (which prints the table of
 * docs/compaction.md).
 *
 * - Captures hold responses and their usage, not the requests, so they show the text rule on
 *   real replies: a reply's estimated tokens against its reported `output`. Replies with hidden
 *   or summarised reasoning and server-side tools are listed but not comparable: part of their
 *   output never reaches the transcript.
 * - Generated sessions have a known truth: every message is counted with the o200k tokenizer
 *   (OpenAI's GPT-4o and later), plus 4 tokens of framing per message, and each reply "reports"
 *   the usage of its own call. The estimate at each model call is compared with the true size.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Api, type AssistantMessage, complete, type Model } from "@pi/ai";
import { fixturesDir, listFixtures, type ReplayServer, sseResponse } from "@pi/ai/testing";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { type AgentMessage, estimateContextTokens, estimateMessageTokens } from "../../src/index.js";

// ---------------------------------------------------------------------------------------------
// Captures
// ---------------------------------------------------------------------------------------------

export interface CaptureRow {
	api: string;
	name: string;
	estimated: number;
	reported: number;
	/** `(estimated - reported) / reported`, or `undefined` when not comparable. */
	error: number | undefined;
	/** Why the capture cannot be compared, if so. */
	note?: string;
}

const PATHS: Record<string, string> = { "openai-completions": "/v1", "openai-responses": "/v1", "anthropic-messages": "", "google-generative-ai": "/v1beta" };

function captureModel(api: string, baseUrl: string): Model<Api> {
	return { id: "capture", name: "capture", api, provider: api.startsWith("openai") ? "openai" : api.split("-")[0] as string, baseUrl, reasoning: false, input: ["text", "image"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1_000_000, maxTokens: 8_192 };
}

/** Why part of a capture's output is not in its message, if it is so. */
function hiddenOutput(raw: string, message: AssistantMessage): string | undefined {
	const hidden = [/"reasoning_tokens":\s*([1-9]\d*)/, /"thoughtsTokenCount":\s*([1-9]\d*)/, /"thinking_tokens":\s*([1-9]\d*)/].map((pattern) => raw.match(pattern)?.[1]).find(Boolean);
	if (hidden) return `${hidden} reasoning tokens hidden or summarised`;
	if (message.content.some((block) => block.type === "thinking")) return "thinking (summarised by newer models)";
	if (/server_tool_use|web_search_call|executableCode|groundingMetadata|tool_search/.test(raw)) return "server-side tools";
	return undefined;
}

/** Replays every capture through its provider and compares each reply's estimate with its reported output. */
export async function measureCaptures(server: ReplayServer): Promise<CaptureRow[]> {
	const rows: CaptureRow[] = [];
	for (const fixture of listFixtures()) {
		const path = PATHS[fixture.api];
		if (path === undefined) continue;
		const raw = readFileSync(fixture.path, "latin1");
		server.reset();
		server.enqueue(sseResponse(readFileSync(fixture.path)));
		const message = await complete(captureModel(fixture.api, `${server.url}${path}`), { messages: [{ role: "user", content: "replay", timestamp: 1 }] }, { apiKey: "sk-accuracy-fake-key-0000", maxRetries: 0 } as never);
		if (message.stopReason === "error" || message.stopReason === "aborted" || message.usage.output <= 0) continue;
		const estimated = estimateMessageTokens(message, fixture.api);
		const note = hiddenOutput(raw, message);
		rows.push({ api: fixture.api, name: fixture.name, estimated, reported: message.usage.output, error: note ? undefined : (estimated - message.usage.output) / message.usage.output, ...(note ? { note } : {}) });
	}
	return rows;
}

// ---------------------------------------------------------------------------------------------
// Generated sessions
// ---------------------------------------------------------------------------------------------

export type Language = "english" | "cjk";

export interface SessionErrors {
	/** Relative errors `(estimate - truth) / truth` at each model call with usage to start from. */
	withUsage: number[];
	/** The same calls, estimated from the messages alone (usage removed). */
	withoutUsage: number[];
}

/** A small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/**
 * Real text to build sessions from, taken from this repository: prose from docs/, code from the
 * packages' sources, JSON from its committed JSON files (benchmark results, package manifests and
 * tsconfigs; never the test reports a running `pnpm test` writes, so the material stays fixed). The
 * captures' payloads are not used: most of their bytes are encrypted reasoning and signatures,
 * which tokenize at 1.5 to 2 characters a token, unlike usual tool output. Chinese comes from a fixed list
 * of common characters (the repository holds little Chinese).
 */
interface Material {
	prose: string;
	code: string;
	json: string;
}

let material: Material | undefined;

function loadMaterial(): Material {
	if (material) return material;
	const root = dirname(fixturesDir());
	const read = (folder: string, pattern: RegExp) => {
		const texts: string[] = [];
		const walk = (dir: string) => {
			for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
				if (entry.isDirectory()) {
					if (entry.name !== "node_modules" && entry.name !== "dist" && entry.name !== "test" && !entry.name.startsWith(".")) walk(join(dir, entry.name));
				} else if (pattern.test(entry.name)) texts.push(readFileSync(join(dir, entry.name), "utf8"));
			}
		};
		walk(join(root, folder));
		return texts.join("\n");
	};
	material = { prose: read("docs", /\.md$/).replace(/```[\s\S]*?```/g, ""), code: read("packages", /\.ts$/), json: read("bench", /^results\.json$/) + read("packages", /^(package|tsconfig[\w.]*)\.json$/) };
	return material;
}

/** `chars` characters of `source`, from a random line start. */
function slice(next: () => number, source: string, chars: number): string {
	let start = Math.floor(next() * Math.max(1, source.length - chars));
	const line = source.lastIndexOf("\n", start);
	start = line < 0 ? 0 : line + 1;
	return source.slice(start, start + chars);
}

const CJK = "会话消息模型工具调用结果上下文压缩摘要窗口估算提供者请求回复流解析配置选项默认改变保持顺序分支条目日志打开关闭读取写入列表路径名称行字节偏移限制预算用户助手问题答案时间数据文件测试运行函数错误返回类型的了是在我有他这中大来上个国到说们为子和你地出道也时年".split("");

function prose(next: () => number, language: Language, chars: number): string {
	if (language === "english") return slice(next, loadMaterial().prose, chars);
	let text = "";
	while (text.length < chars / 3) text += CJK[Math.floor(next() * CJK.length)] + (next() < 0.08 ? "，" : next() < 0.04 ? "。" : "");
	return text;
}

/** o200k tokens of `text`; special-token text (`<|endoftext|>`) counts as plain text. */
function count(text: string): number {
	return countTokens(text, { disallowedSpecial: new Set() } as never);
}

/** The true size of a message: o200k tokens of what it says, plus 4 tokens of framing. */
function trueTokens(message: AgentMessage): number {
	const m = message as AssistantMessage & { content: string | { type: string; text?: string; thinking?: string; name?: string; arguments?: unknown }[] };
	let tokens = 4;
	if (typeof m.content === "string") return tokens + count(m.content);
	for (const block of m.content) {
		if (block.type === "text") tokens += count(block.text ?? "");
		else if (block.type === "thinking") tokens += count(block.thinking ?? "");
		else if (block.type === "toolCall") tokens += count(`${block.name}${JSON.stringify(block.arguments)}`) + 4;
	}
	return tokens;
}

const SYSTEM_TOKENS = 400;
const ZERO_COST = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };

/**
 * Plays `sessions` generated agent sessions of `turns` turns (user prose; replies with text and
 * up to three tool calls; tool results of code or JSON of 200 to 20,000 characters, all real
 * text from the repository; see {@link loadMaterial}) and returns
 * the estimate's relative error at every model call.
 */
export function measureGenerated(language: Language, sessions = 20, turns = 12, seed = 7): SessionErrors {
	const errors: SessionErrors = { withUsage: [], withoutUsage: [] };
	for (let session = 0; session < sessions; session++) {
		const next = random(seed * 1_000 + session);
		const messages: AgentMessage[] = [];
		let truth = SYSTEM_TOKENS;
		let callId = 0;
		const push = (message: AgentMessage) => {
			messages.push(message);
			truth += trueTokens(message);
		};
		/** A model call: measure, then append the reply with the usage the provider would report. */
		const reply = (content: AssistantMessage["content"]) => {
			const estimate = estimateContextTokens(messages).tokens;
			const stripped = estimateContextTokens(messages.map((message) => ((message as { role: string }).role === "assistant" ? { ...message, usage: { ...(message as AssistantMessage).usage, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 } } : message))).tokens;
			if (messages.some((message) => (message as { role: string }).role === "assistant")) errors.withUsage.push((estimate - truth) / truth);
			errors.withoutUsage.push((stripped + SYSTEM_TOKENS - truth) / truth);
			const message: AssistantMessage = { role: "assistant", content, api: "openai-responses", provider: "openai", model: "gpt-4o", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: ZERO_COST }, stopReason: content.some((block) => block.type === "toolCall") ? "toolUse" : "stop", timestamp: messages.length };
			const prompt = truth;
			const output = trueTokens(message);
			// Some of the prompt is read from the provider's cache, as it would be.
			const cached = Math.floor(prompt * 0.6);
			message.usage = { input: prompt - cached, output, cacheRead: cached, cacheWrite: 0, totalTokens: prompt + output, cost: ZERO_COST };
			push(message);
		};
		for (let turn = 0; turn < turns; turn++) {
			push({ role: "user", content: prose(next, language, 60 + Math.floor(next() * 900)), timestamp: messages.length });
			for (let step = 0; step < 1 + Math.floor(next() * 4); step++) {
				const calls = Math.floor(next() * 4);
				const content: AssistantMessage["content"] = [{ type: "text", text: prose(next, language, 30 + Math.floor(next() * 500)) }];
				for (let index = 0; index < calls; index++) content.push({ type: "toolCall", id: `call_${callId++}`, name: index % 2 ? "read_file" : "query", arguments: { path: `packages/agent/src/file${callId}.ts`, limit: 200 } });
				reply(content);
				if (calls === 0) break;
				for (let index = 0; index < calls; index++) {
					const size = 200 + Math.floor(next() ** 2 * 20_000);
					const text = slice(next, next() < 0.5 ? loadMaterial().code : loadMaterial().json, size);
					push({ role: "toolResult", toolCallId: `call_${callId - calls + index}`, toolName: index % 2 ? "read_file" : "query", content: [{ type: "text", text }], isError: false, timestamp: messages.length });
				}
			}
		}
	}
	return errors;
}

/** Median, 95th percentile and largest of the absolute values, and the mean signed value. */
export function spread(values: readonly number[]): { median: number; p95: number; max: number; mean: number; count: number } {
	const absolute = values.map(Math.abs).sort((a, b) => a - b);
	const at = (q: number) => absolute[Math.min(absolute.length - 1, Math.floor(q * absolute.length))] ?? 0;
	return { median: at(0.5), p95: at(0.95), max: absolute.at(-1) ?? 0, mean: values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length), count: values.length };
}
