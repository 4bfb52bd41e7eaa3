/**
 * A long-lived worker streaming replies with one peer (argv[2], see lib/peers.js). `run` makes the
 * requests the replay server has queued and reports wall time, this process's CPU time, and a
 * summary of the last reply's content (characters of text, thinking and tool arguments, tool-call
 * count) so the orchestrator can check the library decoded everything.
 */
import { serveWorker } from "../lib/child.js";
import { BENCH_TOOLS, STREAM_OPTIONS, benchContext, benchModel } from "../lib/models.js";

const side = /** @type {import("../lib/peers.js").PeerSide} */ (process.argv[2]);

/** @typedef {{ events: number, summary: any }} Outcome */
/** @type {(api: string, url: string) => Promise<Outcome>} */
const once = await makeRunner(side);

serveWorker({
	/** @param {{ api: string, url: string, requests: number }} payload */
	async run({ api, url, requests }) {
		let events = 0;
		let summary;
		const cpu0 = process.cpuUsage();
		const t0 = process.hrtime.bigint();
		for (let i = 0; i < requests; i++) {
			const outcome = await once(api, url);
			events += outcome.events;
			summary = outcome.summary;
		}
		const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
		const cpu = process.cpuUsage(cpu0);
		return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, libraryEvents: events, summary };
	},
});

/** @param {string} which */
async function makeRunner(which) {
	if (which === "ours" || which === "ref" || which === "pi16") {
		const lib = await import(which === "ours" ? "@pi/ai" : which === "ref" ? "@mariozechner/pi-ai" : "@earendil-works/pi-ai/compat");
		const context = benchContext();
		return async (/** @type {string} */ api, /** @type {string} */ url) => {
			const s = lib.stream(benchModel(api, url), context, STREAM_OPTIONS);
			let events = 0;
			for await (const _event of s) events++;
			const message = await s.result();
			if (message.stopReason === "error" || message.stopReason === "aborted") throw new Error(`${which} ${api}: ${message.stopReason}: ${message.errorMessage}`);
			const summary = { text: 0, thinking: 0, toolCalls: 0, argsChars: 0 };
			for (const block of message.content) {
				if (block.type === "text") summary.text += block.text.length;
				else if (block.type === "thinking") summary.thinking += block.thinking.length;
				else if (block.type === "toolCall") {
					summary.toolCalls++;
					summary.argsChars += JSON.stringify(block.arguments).length;
				}
			}
			return { events, summary };
		};
	}
	if (which === "aisdk") {
		const [{ streamText, tool, jsonSchema }, { createOpenAI }, { createAnthropic }, { createGoogleGenerativeAI }] = await Promise.all([
			import("ai"),
			import("@ai-sdk/openai"),
			import("@ai-sdk/anthropic"),
			import("@ai-sdk/google"),
		]);
		// The SDK's warnings (an unknown model id) would go to stderr on every request.
		/** @type {any} */ (globalThis).AI_SDK_LOG_WARNINGS = false;
		const context = benchContext();
		const tools = Object.fromEntries(BENCH_TOOLS.map((t) => [t.name, tool({ description: t.description, inputSchema: jsonSchema(/** @type {any} */ (t.parameters)) })]));
		const apiKey = STREAM_OPTIONS.apiKey;
		/** @type {Map<string, any>} */
		const models = new Map();
		const modelFor = (/** @type {string} */ api, /** @type {string} */ url) => {
			const key = `${api} ${url}`;
			let model = models.get(key);
			if (!model) {
				if (api === "openai-completions") model = createOpenAI({ baseURL: `${url}/v1`, apiKey }).chat("bench-model");
				else if (api === "openai-responses") model = createOpenAI({ baseURL: `${url}/v1`, apiKey }).responses("bench-model");
				else if (api === "anthropic-messages") model = createAnthropic({ baseURL: `${url}/v1`, apiKey })("bench-model");
				else model = createGoogleGenerativeAI({ baseURL: `${url}/v1beta`, apiKey })("bench-model");
				models.set(key, model);
			}
			return model;
		};
		return async (/** @type {string} */ api, /** @type {string} */ url) => {
			/** @type {unknown} */
			let failure;
			const result = streamText({
				model: modelFor(api, url),
				system: context.systemPrompt,
				messages: [{ role: "user", content: /** @type {string} */ (context.messages[0]?.content) }],
				tools,
				maxOutputTokens: 8192,
				maxRetries: 0,
				onError: ({ error }) => {
					failure = error;
				},
			});
			let events = 0;
			const summary = { text: 0, thinking: 0, toolCalls: 0, argsChars: 0 };
			for await (const part of result.fullStream) {
				events++;
				if (part.type === "text-delta") summary.text += part.text.length;
				else if (part.type === "reasoning-delta") summary.thinking += part.text.length;
				else if (part.type === "tool-call") {
					summary.toolCalls++;
					summary.argsChars += JSON.stringify(part.input).length;
				} else if (part.type === "error") failure = part.error;
			}
			if (failure) throw new Error(`aisdk ${api}: ${failure instanceof Error ? failure.message : String(failure)}`);
			return { events, summary };
		};
	}
	// The floor: the request, the SSE framing and one JSON.parse per event; no content is kept.
	const { createParser } = await import("eventsource-parser");
	const body = JSON.stringify({ model: "bench-model", stream: true, messages: [{ role: "user", content: "Hello, please help." }] });
	return async (/** @type {string} */ _api, /** @type {string} */ url) => {
		const response = await fetch(`${url}/stream`, { method: "POST", headers: { "content-type": "application/json" }, body });
		if (!response.ok || !response.body) throw new Error(`floor: HTTP ${response.status}`);
		let events = 0;
		const parser = createParser({
			onEvent(event) {
				events++;
				if (event.data !== "[DONE]") JSON.parse(event.data);
			},
		});
		const decoder = new TextDecoder();
		for await (const chunk of response.body) parser.feed(decoder.decode(chunk, { stream: true }));
		return { events, summary: { text: 0, thinking: 0, toolCalls: 0, argsChars: 0 } };
	};
}
