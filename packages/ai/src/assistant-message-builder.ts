import { calculateCost } from "./cost.js";
import { AssistantMessageEventStream, emptyUsage } from "./event-stream.js";
import { redactSecrets } from "./utils/redact.js";
import { StreamingJsonParser } from "./utils/streaming-json.js";
import { StructuredOutput } from "./structured-output/structured-output.js";
import { StructuredTextDeltaEvent } from "./structured-output/text-delta-event.js";
import type {
	Api,
	AssistantMessage,
	DeferredHandle,
	Model,
	OutputOptions,
	StopReason,
	TextContent,
	ThinkingContent,
	ToolCall,
} from "./types.js";

type Block = TextContent | ThinkingContent | ToolCall;

/** Token counts as a provider reports them; missing fields keep their previous value. */
export interface UsageCounts {
	input?: number;
	output?: number;
	cacheRead?: number;
	cacheWrite?: number;
}

export type FinishReason = Extract<StopReason, "stop" | "length" | "toolUse" | "deferred" | "error">;

export interface FinishDetails {
	/** The provider's own stop value. */
	rawStopReason?: string;
	/** Required in substance when the reason is `error`. */
	errorMessage?: string;
	deferred?: DeferredHandle;
}

/**
 * Builds one `AssistantMessage` and its event stream from a few verbs: open a block, append to
 * it, close it, set usage, finish or fail. It owns every guarantee of the event protocol, so a
 * provider is only its mapping from wire events to these verbs:
 *
 * - `start` is pushed on construction, before anything can fail;
 * - every event carries the same live `partial` message, whose `stopReason` stays `pending`;
 * - tool-call arguments are parsed incrementally, and the partial value is on the block;
 * - open blocks are closed before the terminal event;
 * - exactly one terminal event: later calls to `finish`/`fail` are ignored;
 * - error messages are scrubbed of the secrets it was given;
 * - with structured output ({@link expectOutput}), text deltas carry `partialOutput` and a `stop`
 *   ends with the validated `output`, or with `error` naming what does not match.
 *
 * Block indexes are positions in `message.content`. Providers keep their own map from the wire's
 * block key (index, item id) to the content index returned by `start*`.
 */
export class AssistantMessageBuilder {
	readonly stream: AssistantMessageEventStream;
	readonly message: AssistantMessage;
	private readonly parsers = new Map<number, StreamingJsonParser>();
	/** Tool calls whose argument text had more than whitespace. */
	private readonly argumentText = new Set<number>();
	private readonly open = new Set<number>();
	private finished = false;
	private structured: StructuredOutput | undefined;

	constructor(
		private readonly model: Model<Api>,
		private readonly secrets: readonly (string | undefined)[] = [],
		stream: AssistantMessageEventStream = new AssistantMessageEventStream(),
	) {
		this.stream = stream;
		this.message = {
			role: "assistant",
			content: [],
			api: model.api,
			provider: model.provider,
			model: model.id,
			usage: emptyUsage(),
			stopReason: "pending",
			timestamp: Date.now(),
		};
		this.stream.push({ type: "start", partial: this.message });
	}

	/**
	 * Reads the reply as structured output: every `text_delta` gets `partialOutput`, and a `stop`
	 * gets `output` after the text parses and matches `output.schema` (else it ends `error`).
	 * Throws a `TypeError` when `output` is not usable (no JSON Schema object, a bad name).
	 */
	expectOutput(output: OutputOptions): void {
		this.structured = new StructuredOutput(output);
	}

	/**
	 * The reply's nulls for optional properties are dropped before validation: the provider sent
	 * the schema in OpenAI strict mode, where optional properties became nullable ones.
	 */
	outputOptionalsAsNull(): void {
		this.structured?.acceptNullOptionals();
	}

	/** The refusal text the provider sends (OpenAI's `refusal`) on a text block: visible text, and with structured output an error at the end. */
	appendRefusal(index: number, delta: string): void {
		if (delta === "") return;
		const block = this.openBlock(index, "text");
		block.text += delta;
		this.structured?.refuse(delta);
		this.stream.push({ type: "text_delta", contentIndex: index, delta, partial: this.message });
	}

	/** True once `finish` or `fail` ran. */
	get isFinished(): boolean {
		return this.finished;
	}

	/** True when any content block was opened. Retrying is only safe before this. */
	get hasContent(): boolean {
		return this.message.content.length > 0;
	}

	startText(textSignature?: string): number {
		const block: TextContent = { type: "text", text: "" };
		if (textSignature !== undefined) block.textSignature = textSignature;
		const index = this.add(block);
		this.stream.push({ type: "text_start", contentIndex: index, partial: this.message });
		return index;
	}

	startThinking(options: { redacted?: boolean; signature?: string } = {}): number {
		const block: ThinkingContent = { type: "thinking", thinking: "" };
		if (options.signature !== undefined) block.thinkingSignature = options.signature;
		if (options.redacted) block.redacted = true;
		const index = this.add(block);
		this.stream.push({ type: "thinking_start", contentIndex: index, partial: this.message });
		return index;
	}

	startToolCall(id: string, name: string, thoughtSignature?: string): number {
		const block: ToolCall = { type: "toolCall", id, name, arguments: {} };
		if (thoughtSignature !== undefined) block.thoughtSignature = thoughtSignature;
		const index = this.add(block);
		// Text before a tool call is commentary, not the reply's output.
		this.structured?.reset();
		this.parsers.set(index, new StreamingJsonParser());
		this.stream.push({ type: "toolcall_start", contentIndex: index, partial: this.message });
		return index;
	}

	appendText(index: number, delta: string): void {
		if (delta === "") return;
		const block = this.openBlock(index, "text");
		block.text += delta;
		const structured = this.structured;
		if (structured) {
			structured.push(delta);
			this.stream.push(new StructuredTextDeltaEvent(index, delta, this.message, structured.reader));
			return;
		}
		this.stream.push({ type: "text_delta", contentIndex: index, delta, partial: this.message });
	}

	appendThinking(index: number, delta: string): void {
		if (delta === "") return;
		const block = this.openBlock(index, "thinking");
		block.thinking += delta;
		this.stream.push({ type: "thinking_delta", contentIndex: index, delta, partial: this.message });
	}

	/** Appends a fragment of the arguments' JSON text. The block shows the partial value so far. */
	appendToolCallArguments(index: number, delta: string): void {
		if (delta === "") return;
		const block = this.openBlock(index, "toolCall");
		const parser = this.parsers.get(index);
		if (!parser) return;
		parser.push(delta);
		if (!this.argumentText.has(index) && /\S/.test(delta)) this.argumentText.add(index);
		const partial = parser.value;
		if (isPlainObject(partial)) block.arguments = partial;
		this.stream.push({ type: "toolcall_delta", contentIndex: index, delta, partial: this.message });
	}

	/** Sets arguments that arrive whole (Gemini, Anthropic `content_block_start.input`). */
	setToolCallArguments(index: number, args: Record<string, unknown>): void {
		this.appendToolCallArguments(index, JSON.stringify(args));
	}

	/** Sets the block's signature: `textSignature`, `thinkingSignature` or `thoughtSignature`. */
	setSignature(index: number, signature: string): void {
		const block = this.message.content[index];
		if (!block) return;
		if (block.type === "text") block.textSignature = signature;
		else if (block.type === "thinking") block.thinkingSignature = signature;
		else block.thoughtSignature = signature;
	}

	/** Closes a block and pushes its `*_end` event. Closing a closed block does nothing. */
	end(index: number): void {
		if (!this.open.delete(index)) return;
		const block = this.message.content[index] as Block;
		if (block.type === "text") {
			this.stream.push({ type: "text_end", contentIndex: index, content: block.text, partial: this.message });
		} else if (block.type === "thinking") {
			this.stream.push({ type: "thinking_end", contentIndex: index, content: block.thinking, partial: this.message });
		} else {
			block.arguments = this.finalArguments(index, block);
			this.stream.push({ type: "toolcall_end", contentIndex: index, toolCall: block, partial: this.message });
		}
	}

	/** Closes every open block, in content order. */
	endAll(): void {
		for (const index of [...this.open].sort((a, b) => a - b)) this.end(index);
	}

	/** Updates token counts; fields not given keep their value. Cost follows at the end. */
	setUsage(counts: UsageCounts): void {
		const usage = this.message.usage;
		if (counts.input !== undefined) usage.input = counts.input;
		if (counts.output !== undefined) usage.output = counts.output;
		if (counts.cacheRead !== undefined) usage.cacheRead = counts.cacheRead;
		if (counts.cacheWrite !== undefined) usage.cacheWrite = counts.cacheWrite;
		usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
	}

	setResponseId(id: string): void {
		this.message.responseId = id;
	}

	/**
	 * Records the model id the server says answered (a Completions chunk's `model`, a Responses
	 * `response.model`, Anthropic's `message_start.message.model`, Gemini's `modelVersion`) as
	 * `message.responseModel`, only when it is a non-empty string that differs from the requested
	 * `model.id`; the first such value wins, as in the reference. Providers pass the wire field
	 * unchecked: it is untrusted JSON, so anything else (absent, `""`, a number) is ignored.
	 *
	 * @example
	 * builder.setResponseModel(chunk.model); // "gpt-4o-mini-2024-07-18" for a request of "gpt-4o-mini"
	 */
	setResponseModel(id: unknown): void {
		if (this.message.responseModel !== undefined) return;
		// Azure's first chunk has `model: ""`; an alias that resolves to itself says nothing new.
		if (typeof id !== "string" || id === "" || id === this.model.id) return;
		this.message.responseModel = id;
	}

	/** Ends the message with a stop reason. `error` here is a provider-reported failure. */
	finish(reason: FinishReason, details: FinishDetails = {}): AssistantMessage {
		if (this.finished) return this.message;
		this.endAll();
		// A consumer may abort synchronously inside one of the `*_end` pushes above; that abort has
		// already ended the message, and its terminal event must stay the only one.
		if (this.finished) return this.message;
		this.finished = true;
		const message = this.message;
		let errorMessage = details.errorMessage;
		// A `stop` with tool calls (some servers say so) is a turn the tools continue, not the answer.
		if (reason === "stop" && this.structured && !message.content.some((block) => block.type === "toolCall")) {
			const outcome = this.structured.finish();
			if (outcome.ok) message.output = outcome.value;
			else {
				reason = "error";
				errorMessage = outcome.error;
			}
		}
		message.stopReason = reason;
		if (details.rawStopReason !== undefined) message.rawStopReason = details.rawStopReason;
		if (details.deferred) message.deferred = details.deferred;
		calculateCost(this.model, message.usage);
		if (reason === "error") {
			message.errorMessage = this.redact(errorMessage ?? "The provider reported an error.");
			this.stream.push({ type: "error", reason, error: message });
		} else {
			this.stream.push({ type: "done", reason, message });
		}
		this.stream.end();
		return message;
	}

	/**
	 * Ends the message after a failure, keeping all content that arrived. The reason is `aborted`
	 * when `signal` is aborted, else `error`.
	 */
	fail(error: unknown, signal?: AbortSignal): AssistantMessage {
		if (this.finished) return this.message;
		this.endAll();
		if (this.finished) return this.message; // ended by an abort inside a `*_end` push, as in `finish`
		this.finished = true;
		const message = this.message;
		const aborted = signal?.aborted === true;
		message.stopReason = aborted ? "aborted" : "error";
		message.errorMessage = this.redact(aborted ? abortMessage(signal) : errorText(error));
		calculateCost(this.model, message.usage);
		this.stream.push({ type: "error", reason: message.stopReason as "error" | "aborted", error: message });
		this.stream.end();
		return message;
	}

	private add(block: Block): number {
		if (this.finished) throw new Error("AssistantMessageBuilder: cannot add a block after the message finished");
		const index = this.message.content.push(block) - 1;
		this.open.add(index);
		return index;
	}

	private openBlock<T extends Block["type"]>(index: number, type: T): Extract<Block, { type: T }> {
		const block = this.message.content[index];
		if (!block || block.type !== type || !this.open.has(index)) {
			throw new Error(`AssistantMessageBuilder: no open ${type} block at content index ${index}`);
		}
		return block as Extract<Block, { type: T }>;
	}

	private finalArguments(index: number, block: ToolCall): Record<string, unknown> {
		const parser = this.parsers.get(index);
		this.parsers.delete(index);
		if (!parser) return block.arguments;
		const hadText = this.argumentText.delete(index);
		let value: unknown;
		try {
			value = parser.finish();
		} catch (error) {
			// No argument text at all means no arguments: `{}`.
			if (!hadText) return {};
			// Invalid JSON from the model: keep the best-effort value so nothing is lost, and remember
			// why, so that validation refuses these arguments instead of running the tool with them.
			invalidArguments.set(block.arguments, error instanceof Error ? error.message : String(error));
			return block.arguments;
		}
		if (isPlainObject(value)) return value;
		const empty: Record<string, unknown> = {};
		invalidArguments.set(empty, `expected a JSON object, got ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value}`);
		return empty;
	}

	private redact(text: string): string {
		return redactSecrets(text, this.secrets);
	}
}

/**
 * Arguments objects of tool calls whose streamed JSON was invalid, with the parser's message.
 * Kept beside the blocks (a WeakMap keyed by the arguments object), not on them: the final
 * message carries no scratch fields, and the mark lives exactly as long as the arguments.
 */
const invalidArguments = new WeakMap<object, string>();

/**
 * Why a streamed tool call's arguments are not what the model meant: its JSON was invalid (cut
 * short, malformed) or not an object. `undefined` for valid arguments. `validateToolArguments`
 * refuses such arguments, so an agent never runs a tool with a best-effort partial value.
 */
export function toolArgumentsError(args: object): string | undefined {
	return invalidArguments.get(args);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function abortMessage(signal: AbortSignal | undefined): string {
	const reason: unknown = signal?.reason;
	if (reason instanceof Error && reason.name !== "AbortError") return `Request was aborted: ${reason.message}`;
	if (typeof reason === "string" && reason) return `Request was aborted: ${reason}`;
	return "Request was aborted.";
}

function errorText(error: unknown): string {
	if (error instanceof Error) return error.message || error.name;
	if (typeof error === "string") return error;
	try {
		return JSON.stringify(error);
	} catch {
		return String(error);
	}
}
