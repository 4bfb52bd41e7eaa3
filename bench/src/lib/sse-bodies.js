/**
 * Long, valid SSE bodies built from the recorded fixtures, so throughput is measured on real wire
 * bytes (vendor field order, padding, CRLF framing) rather than on synthetic events.
 *
 * Two ways of lengthening a capture:
 * - `runs` (text and thinking classes): every maximal run of consecutive text (or thinking) delta
 *   events is repeated in place `k` times. Block structure is unchanged: the reply has the same
 *   blocks as the capture, each `k` times longer.
 * - `cycles` (tool-call class): the span from the first tool-call start to the last tool-call end
 *   is repeated, each copy renumbered (block/item/call indexes and ids) so the copies are new
 *   parallel tool calls and every argument stays valid JSON. Copies stop at `maxToolCalls` calls
 *   per reply, a realistic ceiling; the volume then comes from repeating the request.
 */
import { loadFixture } from "@pi/ai/testing";

/** @typedef {"openai-completions" | "openai-responses" | "anthropic-messages" | "google-generative-ai"} WireApi */
/** @typedef {"text" | "tools" | "thinking"} FixtureClass */
/** @typedef {{ raw: string, name: string | undefined, data: any }} SseEvent */

/** The capture used for each API and class. @type {Record<WireApi, Record<FixtureClass, string>>} */
export const FIXTURES = {
	"openai-completions": { text: "text-basic", tools: "tool-calls-parallel", thinking: "deepseek-reasoning-content" },
	"openai-responses": { text: "text-basic", tools: "function-calls-parallel", thinking: "reasoning-summary-multipart" },
	"anthropic-messages": { text: "text-basic", tools: "tool-use-parallel", thinking: "thinking-signature" },
	"google-generative-ai": { text: "text-basic", tools: "function-calls-parallel", thinking: "thinking-thought-summaries" },
};

/** @type {WireApi[]} */
export const APIS = ["openai-completions", "openai-responses", "anthropic-messages", "google-generative-ai"];

/**
 * Splits an SSE body into events, keeping each event's exact text.
 * @param {string} text
 * @returns {{ events: SseEvent[], separator: string }}
 */
export function parseSse(text) {
	const separator = text.includes("\r\n\r\n") ? "\r\n\r\n" : "\n\n";
	const newline = separator === "\r\n\r\n" ? "\r\n" : "\n";
	const events = [];
	for (const raw of text.split(separator)) {
		if (raw.trim() === "") continue;
		let name;
		const dataLines = [];
		for (const line of raw.split(newline)) {
			if (line.startsWith("event:")) name = line.slice(6).trim();
			else if (line.startsWith("data:")) dataLines.push(line.slice(line.startsWith("data: ") ? 6 : 5));
		}
		let data;
		try {
			data = JSON.parse(dataLines.join("\n"));
		} catch {
			data = undefined; // "[DONE]" and the like
		}
		events.push({ raw, name, data });
	}
	return { events, separator };
}

/** The text of one event rebuilt from (changed) data, in the capture's framing. */
function rebuild(/** @type {SseEvent} */ event, /** @type {any} */ data, /** @type {string} */ separator) {
	const newline = separator === "\r\n\r\n" ? "\r\n" : "\n";
	return `${event.name !== undefined ? `event: ${event.name}${newline}` : ""}data: ${JSON.stringify(data)}`;
}

/** Which delta run an event belongs to, or undefined for a structural event. */
const deltaKind = {
	/** @param {SseEvent} e */
	"openai-completions": (e) => {
		const choice = e.data?.choices?.[0];
		if (!choice || choice.finish_reason || e.data.usage) return undefined;
		const delta = choice.delta ?? {};
		if (delta.tool_calls || delta.role) return undefined;
		const thinking = delta.reasoning_content ?? delta.reasoning;
		if (typeof thinking === "string" && thinking !== "" && !delta.content) return "thinking";
		if (typeof delta.content === "string" && delta.content !== "" && !thinking) return "text";
		return undefined;
	},
	/** @param {SseEvent} e */
	"openai-responses": (e) => {
		const type = e.data?.type;
		if (type === "response.output_text.delta") return "text";
		if (type === "response.reasoning_summary_text.delta" || type === "response.reasoning_text.delta") return "thinking";
		return undefined;
	},
	/** @param {SseEvent} e */
	"anthropic-messages": (e) => {
		if (e.data?.type !== "content_block_delta") return undefined;
		const type = e.data.delta?.type;
		return type === "text_delta" ? "text" : type === "thinking_delta" ? "thinking" : undefined;
	},
	/** @param {SseEvent} e */
	"google-generative-ai": (e) => {
		const candidate = e.data?.candidates?.[0];
		const parts = candidate?.content?.parts;
		if (!candidate || candidate.finishReason || !Array.isArray(parts) || parts.length === 0) return undefined;
		// A part carrying a signature is one of a kind: repeating it would repeat the signature.
		if (parts.some((part) => typeof part.text !== "string" || part.thoughtSignature)) return undefined;
		if (parts.every((part) => part.thought === true)) return "thinking";
		if (parts.every((part) => !part.thought)) return "text";
		return undefined;
	},
};

/**
 * Tool-call span detection and renumbering of a copy, per API.
 * `start`/`end` mark the span; `count` says how many calls the span holds; `renumber(data, cycle, perCycle)`
 * returns the data of copy number `cycle` (≥ 1).
 */
const toolSpan = {
	"openai-completions": {
		start: (/** @type {SseEvent} */ e) => Boolean(e.data?.choices?.[0]?.delta?.tool_calls?.some((/** @type {any} */ call) => call.id)),
		end: (/** @type {SseEvent} */ e) => Boolean(e.data?.choices?.[0]?.delta?.tool_calls),
		count: (/** @type {SseEvent[]} */ span) => span.filter((e) => e.data?.choices?.[0]?.delta?.tool_calls?.some((/** @type {any} */ call) => call.id)).length,
		renumber(/** @type {any} */ data, /** @type {number} */ cycle, /** @type {number} */ perCycle) {
			for (const call of data.choices[0].delta.tool_calls) {
				call.index += cycle * perCycle;
				if (call.id) call.id = `${call.id}_${cycle}`;
			}
			return data;
		},
	},
	"openai-responses": {
		start: (/** @type {SseEvent} */ e) => e.data?.type === "response.output_item.added" && e.data.item?.type === "function_call",
		end: (/** @type {SseEvent} */ e) => e.data?.type === "response.output_item.done" && e.data.item?.type === "function_call",
		count: (/** @type {SseEvent[]} */ span) => span.filter((e) => e.data?.type === "response.output_item.added").length,
		renumber(/** @type {any} */ data, /** @type {number} */ cycle, /** @type {number} */ perCycle) {
			if (typeof data.output_index === "number") data.output_index += cycle * perCycle;
			if (data.item_id) data.item_id = `${data.item_id}_${cycle}`;
			if (data.item?.id) data.item.id = `${data.item.id}_${cycle}`;
			if (data.item?.call_id) data.item.call_id = `${data.item.call_id}_${cycle}`;
			return data;
		},
	},
	"anthropic-messages": {
		start: (/** @type {SseEvent} */ e) => e.data?.type === "content_block_start" && e.data.content_block?.type === "tool_use",
		end: (/** @type {SseEvent} */ e) => e.data?.type === "content_block_stop",
		count: (/** @type {SseEvent[]} */ span) => span.filter((e) => e.data?.type === "content_block_start").length,
		renumber(/** @type {any} */ data, /** @type {number} */ cycle, /** @type {number} */ perCycle) {
			if (typeof data.index === "number") data.index += cycle * perCycle;
			if (data.content_block?.id) data.content_block.id = `${data.content_block.id}_${cycle}`;
			return data;
		},
	},
	"google-generative-ai": {
		start: (/** @type {SseEvent} */ e) => Boolean(e.data?.candidates?.[0]?.content?.parts?.some((/** @type {any} */ part) => part.functionCall)),
		end: (/** @type {SseEvent} */ e) => Boolean(e.data?.candidates?.[0]?.content?.parts?.some((/** @type {any} */ part) => part.functionCall)),
		count: (/** @type {SseEvent[]} */ span) =>
			span.reduce((sum, e) => sum + e.data.candidates[0].content.parts.filter((/** @type {any} */ part) => part.functionCall).length, 0),
		renumber(/** @type {any} */ data) {
			// Gemini names no call index; a copy only must not end the reply early.
			const candidate = data.candidates[0];
			delete candidate.finishReason;
			delete candidate.finishMessage;
			for (const part of candidate.content.parts) if (part.functionCall?.id) part.functionCall.id = `${part.functionCall.id}_${Math.random().toString(36).slice(2, 8)}`;
			return data;
		},
	},
};

/**
 * A lengthened body for `api`/`cls`, with what it should decode to.
 * @param {WireApi} api
 * @param {FixtureClass} cls
 * @param {{ targetBytes: number, maxToolCalls?: number }} options `targetBytes`: SSE bytes wanted per measurement
 * @returns {{ fixture: string, body: Buffer, eventsPerRequest: number, requests: number, toolCallsPerReply: number, repeat: number }}
 */
export function buildBody(api, cls, { targetBytes, maxToolCalls = 64 }) {
	const fixture = FIXTURES[api][cls];
	const { events, separator } = parseSse(loadFixture(api, fixture).toString("utf8"));
	const size = (/** @type {string} */ raw) => Buffer.byteLength(raw) + separator.length;
	/** @type {string[]} */
	let out;
	let repeat = 1;
	let toolCallsPerReply = 0;
	let requests = 1;

	if (cls === "tools") {
		const spec = toolSpan[api];
		const first = events.findIndex(spec.start);
		let last = -1;
		for (let i = events.length - 1; i >= 0; i--) if (spec.end(/** @type {SseEvent} */ (events[i]))) {
			last = i;
			break;
		}
		if (first < 0 || last < first) throw new Error(`${api}/${fixture}: no tool-call span found`);
		const span = events.slice(first, last + 1);
		const perCycle = spec.count(span);
		repeat = Math.max(1, Math.floor(maxToolCalls / perCycle));
		toolCallsPerReply = repeat * perCycle;
		const copies = [];
		for (let cycle = 1; cycle < repeat; cycle++) {
			for (const event of span) copies.push(rebuild(event, spec.renumber(structuredClone(event.data), cycle, perCycle), separator));
		}
		const original = span.map((e) => e.raw);
		// Gemini copies go first: only the original carries the finish reason.
		const middle = api === "google-generative-ai" ? [...copies, ...original] : [...original, ...copies];
		out = [...events.slice(0, first).map((e) => e.raw), ...middle, ...events.slice(last + 1).map((e) => e.raw)];
		const bodyBytes = out.reduce((sum, raw) => sum + size(raw), 0);
		requests = Math.max(1, Math.ceil(targetBytes / bodyBytes));
	} else {
		const classify = deltaKind[api];
		/** @type {{ events: SseEvent[], kind: string | undefined }[]} */
		const groups = [];
		for (const event of events) {
			const kind = classify(event);
			const lastGroup = groups[groups.length - 1];
			if (kind !== undefined && lastGroup?.kind === kind) lastGroup.events.push(event);
			else groups.push({ events: [event], kind });
		}
		const wanted = cls === "thinking" ? ["thinking", "text"] : ["text"];
		const repeatable = groups.filter((g) => g.kind !== undefined && wanted.includes(g.kind));
		if (repeatable.length === 0) throw new Error(`${api}/${fixture}: no ${cls} delta events to repeat`);
		const runBytes = repeatable.reduce((sum, g) => sum + g.events.reduce((s, e) => s + size(e.raw), 0), 0);
		const structuralBytes = events.reduce((sum, e) => sum + size(e.raw), 0) - runBytes;
		repeat = Math.max(1, Math.ceil((targetBytes - structuralBytes) / runBytes));
		out = [];
		for (const group of groups) {
			const times = repeatable.includes(group) ? repeat : 1;
			for (let t = 0; t < times; t++) for (const event of group.events) out.push(event.raw);
		}
	}
	const body = Buffer.from(out.join(separator) + separator, "utf8");
	return { fixture, body, eventsPerRequest: out.length, requests, toolCallsPerReply, repeat };
}

/** The capture each API's short tool-call reply comes from (one call). */
const SINGLE_TOOL_CALL = {
	"openai-completions": "tool-call-single",
	"openai-responses": "function-call-single",
	"anthropic-messages": "tool-use-single",
	"google-generative-ai": "function-call-gemini3-signature",
};

/**
 * A short reply for the requests-per-second row: `text` is the text-basic capture with every run
 * of text deltas cut to its first event (one text delta), `tool` a capture holding one tool call.
 * @param {WireApi} api
 * @param {"text" | "tool"} kind
 * @returns {{ fixture: string, body: Buffer, eventsPerRequest: number }}
 */
export function buildShortBody(api, kind) {
	const fixture = kind === "tool" ? SINGLE_TOOL_CALL[api] : FIXTURES[api].text;
	const { events, separator } = parseSse(loadFixture(api, fixture).toString("utf8"));
	let kept = events;
	if (kind === "text") {
		const classify = deltaKind[api];
		kept = events.filter((event, i) => classify(event) !== "text" || (i > 0 && classify(/** @type {SseEvent} */ (events[i - 1])) !== "text"));
	}
	const raws = kept.map((e) => e.raw);
	return { fixture, body: Buffer.from(raws.join(separator) + separator, "utf8"), eventsPerRequest: raws.length };
}
