/**
 * Long structured-output streams for the structured-output benchmark, built from the real
 * `structured-output` capture of each API (fixtures/<api>/structured-output.sse): the capture's
 * events before its first text delta, one delta event per piece of a large JSON object (the
 * capture's own delta event with the piece swapped in), then the capture's events after its last
 * delta, their copies of the whole text replaced by the large object's text.
 */
import { loadFixture } from "@pi/ai/testing";
import { parseSse } from "./sse-bodies.js";

/** The JSON Schema of {@link bigObject}: what the benchmark's `output` asks for. */
export const ITEMS_SCHEMA = {
	type: "object",
	properties: {
		items: {
			type: "array",
			items: {
				type: "object",
				properties: { id: { type: "integer" }, name: { type: "string" }, price: { type: "number" }, tags: { type: "array", items: { type: "string" } } },
				required: ["id", "name", "price", "tags"],
			},
		},
	},
	required: ["items"],
};

/** A JSON text of about `chars` characters matching {@link ITEMS_SCHEMA}. */
function bigObject(chars) {
	const items = [];
	let length = 12;
	for (let id = 1; length < chars; id++) {
		const item = { id, name: `Item number ${id}, a "quoted" name \u00e9\u4e2d`, price: Math.round(id * 137.31) / 100, tags: ["tag-a", `tag-${id % 7}`] };
		items.push(item);
		length += JSON.stringify(item).length + 1;
	}
	return JSON.stringify({ items });
}

/** Where each API's delta event keeps its piece of text. */
const TEXT_FIELD = {
	"openai-completions": { is: (e) => typeof e.choices?.[0]?.delta?.content === "string" && e.choices[0].delta.content !== "", set: (e, t) => (e.choices[0].delta.content = t) },
	"openai-responses": { is: (e) => e.type === "response.output_text.delta", set: (e, t) => (e.delta = t) },
	"anthropic-messages": { is: (e) => e.type === "content_block_delta" && e.delta?.type === "text_delta", set: (e, t) => (e.delta.text = t) },
	"google-generative-ai": { is: (e) => typeof e.candidates?.[0]?.content?.parts?.[0]?.text === "string", set: (e, t) => (e.candidates[0].content.parts[0].text = t) },
};

const frame = (api, event, data) => (api === "google-generative-ai" ? `data: ${data}\n\n` : `${event ? `event: ${event}\n` : ""}data: ${data}\n\n`);

/**
 * @param {keyof typeof TEXT_FIELD} api
 * @param {number} targetBytes about how large the body is
 * @param {number} pieceChars characters of JSON per delta event (real streams send 2–20)
 * @returns {{ body: string, eventsPerRequest: number, text: string, fixture: string }}
 */
export function buildStructuredBody(api, targetBytes, pieceChars = 12) {
	const { events, separator } = parseSse(loadFixture(api, "structured-output").toString("utf8"));
	const field = TEXT_FIELD[api];
	const parsed = events.map((event) => ({ event: event.name, json: event.data, raw: event.raw }));
	const first = parsed.findIndex((event) => event.json && field.is(event.json));
	let last = first;
	for (let i = first; i < parsed.length; i++) if (parsed[i].json && field.is(parsed[i].json)) last = i;
	const original = parsed.slice(first, last + 1).map((event) => (event.json && field.is(event.json) ? readText(api, event.json) : "")).join("");
	const template = parsed[first];
	// Size the object so that the body is about targetBytes: each delta event costs its frame.
	const probe = JSON.parse(JSON.stringify(template.json));
	field.set(probe, "x".repeat(pieceChars));
	const perEvent = frame(api, template.event, JSON.stringify(probe)).length;
	const text = bigObject(Math.round((targetBytes / perEvent) * pieceChars));
	const out = [];
	for (const event of parsed.slice(0, first)) out.push(event.raw + separator);
	let eventsPerRequest = first;
	const lastEvent = api === "google-generative-ai" ? parsed[last] : undefined;
	for (let start = 0; start < text.length; start += pieceChars) {
		const json = JSON.parse(JSON.stringify(template.json));
		// Gemini's one chunk also carries the finish reason and usage: those go on the last piece only.
		if (lastEvent && start + pieceChars < text.length) {
			delete json.candidates[0].finishReason;
			delete json.usageMetadata;
		}
		field.set(json, text.slice(start, start + pieceChars));
		out.push(frame(api, template.event, JSON.stringify(json)));
		eventsPerRequest++;
	}
	const escapedOriginal = JSON.stringify(original).slice(1, -1);
	const escapedText = JSON.stringify(text).slice(1, -1);
	for (const event of parsed.slice(last + 1)) {
		out.push(event.raw.split(escapedOriginal).join(escapedText) + separator);
		eventsPerRequest++;
	}
	return { body: out.join(""), eventsPerRequest, text, fixture: `${api}/structured-output` };
}

function readText(api, json) {
	if (api === "openai-completions") return json.choices[0].delta.content;
	if (api === "openai-responses") return json.delta;
	if (api === "anthropic-messages") return json.delta.text;
	return json.candidates[0].content.parts[0].text;
}
