import type {
	Api,
	AssistantMessage,
	ImageContent,
	Message,
	Model,
	TextContent,
	ToolCall,
	ToolResultMessage,
	UserMessage,
} from "./types.js";

/**
 * The reference's form of the id normaliser: also told the target model and the assistant message
 * the call comes from. Pass it directly as `transformMessages`' third argument.
 */
export type NormalizeToolCallId<TApi extends Api = Api> = (id: string, model: Model<TApi>, source: AssistantMessage) => string;

export interface TransformOptions {
	/**
	 * Maps a tool-call id to one the target API accepts. It must be deterministic; results follow
	 * their calls, and collisions are made unique here. Default: ids are kept.
	 */
	normalizeToolCallId?: (id: string) => string;
}

/** The text a tool call gets as its result when the transcript has none. */
export const MISSING_TOOL_RESULT_TEXT = "No result was recorded for this tool call.";
/** The text the tool calls of an aborted or failed assistant message get as their result. */
export const UNFINISHED_TOOL_CALL_TEXT = "This tool call was not executed: the assistant's reply was interrupted.";
/** Stands in for an image sent to a model that does not accept images. */
export const IMAGE_OMITTED_TEXT = "(image omitted: this model does not accept images)";

/**
 * Prepares a transcript for `model`, so that a conversation can move between models and APIs.
 * Providers call it before they convert messages to their wire format. The input is not mutated.
 *
 * - Thinking from another model becomes plain text (redacted thinking is dropped); signatures
 *   (`thinkingSignature`, `textSignature`, `thoughtSignature`) are kept only for the same model.
 * - Tool-call ids pass through `normalizeToolCallId`; their results follow them.
 * - A tool call without a result gets a synthetic error result right after its turn, and a
 *   result whose call is not in the transcript is dropped.
 * - An `error` or `aborted` assistant message keeps its text for context; its tool calls are
 *   closed with an error result. A message left with no content is dropped.
 * - Empty text and thinking blocks are dropped, in user messages too; a user message left with
 *   nothing is dropped.
 * - Images sent to a text-only model become a short text note.
 */
export function transformMessages<TApi extends Api>(
	messages: readonly Message[],
	model: Model<TApi>,
	options: TransformOptions | NormalizeToolCallId<TApi> = {},
): Message[] {
	// The reference passes the normaliser itself as the third argument; accept both forms.
	const normalize: ((id: string, source: AssistantMessage) => string) | undefined =
		typeof options === "function"
			? (id, source) => options(id, model, source)
			: options.normalizeToolCallId
				? (id) => (options.normalizeToolCallId as (id: string) => string)(id)
				: undefined;
	const ids = new ToolCallIdMap(normalize);
	const acceptsImages = model.input.includes("image");
	const output: Message[] = [];
	/** Tool calls of the latest assistant turn still waiting for their results. */
	let open = new Map<string, ToolCall>();
	/** The same calls by their original id, in call order: a message may use one id twice. */
	let openByOriginal = new Map<string, string[]>();
	let unfinished = false;

	const closeOpenCalls = () => {
		for (const call of open.values()) {
			output.push(syntheticResult(call, unfinished ? UNFINISHED_TOOL_CALL_TEXT : MISSING_TOOL_RESULT_TEXT));
		}
		open = new Map();
		openByOriginal = new Map();
	};

	for (const message of messages) {
		if (message.role === "toolResult") {
			// Some servers give parallel calls one id (e.g. `call_0` for each): a result then answers
			// the open call of that id with its tool's name, else the first open one.
			const candidates = (openByOriginal.get(message.toolCallId) ?? []).filter((id) => open.has(id));
			const id = candidates.find((candidate) => open.get(candidate)?.name === message.toolName) ?? candidates[0];
			if (id === undefined) continue; // orphan or duplicate result: no call to answer
			open.delete(id);
			output.push({ ...message, toolCallId: id, content: images(message.content, acceptsImages) });
			continue;
		}
		closeOpenCalls();
		if (message.role === "user") {
			const user = userMessage(message, acceptsImages);
			if (user) output.push(user);
			continue;
		}
		const converted = assistantMessage(message, model, ids);
		if (!converted) continue;
		output.push(converted);
		unfinished = message.stopReason === "error" || message.stopReason === "aborted";
		// Tool calls keep their order through the conversion, so the n-th converted call is the n-th original.
		const originals = message.content.filter((block) => block.type === "toolCall").map((block) => block.id);
		let n = 0;
		for (const block of converted.content) {
			if (block.type !== "toolCall") continue;
			open.set(block.id, block);
			const original = originals[n++] ?? block.id;
			openByOriginal.set(original, [...(openByOriginal.get(original) ?? []), block.id]);
		}
	}
	closeOpenCalls();
	return output;
}

/** Whether `message` was produced by exactly this model (same provider, API and id). */
export function isSameModel<TApi extends Api>(message: AssistantMessage, model: Model<TApi>): boolean {
	return message.provider === model.provider && message.api === model.api && message.model === model.id;
}

function assistantMessage<TApi extends Api>(
	message: AssistantMessage,
	model: Model<TApi>,
	ids: ToolCallIdMap,
): AssistantMessage | undefined {
	const same = isSameModel(message, model);
	const failed = message.stopReason === "error" || message.stopReason === "aborted";
	const content: AssistantMessage["content"] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			// An empty text block is dropped, unless it carries server-tool parts for the same model
			// (a reply of only Gemini code execution or Anthropic server tools; their envelopes start
			// with `{"pi`, see google-generative-ai/server-parts.ts and anthropic-messages/server-blocks.ts).
			if (block.text.trim() === "" && !(same && block.textSignature?.startsWith('{"pi'))) continue;
			content.push(same ? { ...block } : { type: "text", text: block.text });
		} else if (block.type === "thinking") {
			// A failed reply's reasoning may be cut short and its signature incomplete: drop it.
			if (failed) continue;
			if (same && (block.thinkingSignature || block.redacted)) {
				content.push({ ...block });
			} else if (!block.redacted && block.thinking.trim() !== "") {
				content.push(same ? { ...block } : { type: "text", text: block.thinking });
			}
		} else {
			const call: ToolCall = { type: "toolCall", id: ids.map(block.id, message), name: block.name, arguments: block.arguments };
			if (same && block.thoughtSignature) call.thoughtSignature = block.thoughtSignature;
			content.push(call);
		}
	}
	if (content.length === 0) return undefined;
	return { ...message, content };
}

/**
 * The user message without blank text parts (Anthropic and Gemini reject empty text blocks), or
 * `undefined` when nothing is left to send.
 */
function userMessage(message: UserMessage, acceptsImages: boolean): UserMessage | undefined {
	if (typeof message.content === "string") return message.content.trim() === "" ? undefined : message;
	const content = message.content.filter((block) => block.type !== "text" || block.text.trim() !== "");
	if (content.length === 0) return undefined;
	if (content.length === message.content.length && acceptsImages) return message;
	return { ...message, content: images(content, acceptsImages) };
}

function images<T extends TextContent | ImageContent>(content: T[], acceptsImages: boolean): (TextContent | ImageContent)[] {
	if (acceptsImages || !content.some((block) => block.type === "image")) return content;
	return content.map((block) => (block.type === "image" ? { type: "text", text: IMAGE_OMITTED_TEXT } : block));
}

function syntheticResult(call: ToolCall, text: string): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: call.id,
		toolName: call.name,
		content: [{ type: "text", text }],
		isError: true,
		timestamp: Date.now(),
	};
}

/** Keeps original → normalised id pairs consistent and unique across the transcript. */
class ToolCallIdMap {
	private readonly mapped = new Map<string, string>();
	private readonly used = new Set<string>();

	constructor(private readonly normalize: ((id: string, source: AssistantMessage) => string) | undefined) {}

	map(original: string, source: AssistantMessage): string {
		const known = this.mapped.get(original);
		if (known !== undefined) {
			// The same id used again by a later call: give it a fresh unique id.
			const again = this.unique(known);
			this.mapped.set(original, again);
			return again;
		}
		const id = this.unique(this.normalize ? this.normalize(original, source) : original);
		this.mapped.set(original, id);
		return id;
	}

	private unique(candidate: string): string {
		let id = candidate;
		for (let n = 2; this.used.has(id); n++) {
			const suffix = `_${n}`;
			id = candidate.slice(0, Math.max(1, candidate.length - suffix.length)) + suffix;
			if (id === candidate) id = `${candidate}${suffix}`;
		}
		this.used.add(id);
		return id;
	}
}

/**
 * Makes `id` match `^[a-zA-Z0-9_-]{1,maxLength}$`: other characters become `_`, and an id that
 * had to change keeps a short hash of the original so that distinct ids stay distinct.
 * Used for Anthropic (`maxLength` 64) and other strict targets.
 */
export function sanitizeToolCallId(id: string, maxLength = 64): string {
	const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, "_");
	if (cleaned === id && id.length > 0 && id.length <= maxLength) return id;
	const hash = fnv1a(id);
	const head = cleaned.slice(0, Math.max(0, maxLength - hash.length - 1));
	return head ? `${head}_${hash}` : hash.slice(0, maxLength);
}

/** A short, stable, alphanumeric hash (FNV-1a, 32-bit, base 36). */
export function fnv1a(text: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash.toString(36);
}
