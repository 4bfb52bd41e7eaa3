import { registerApiProvider, unregisterApiProviders } from "../api-registry.js";
import type { AssistantMessageBuilder } from "../assistant-message-builder.js";
import { emptyUsage } from "../event-stream.js";
import { createProviderStream } from "../provider-stream.js";
import { assertDeferredHandle, makeHandle, pollJob, waitDeadline } from "../deferred/handle.js";
import { delay } from "../http/retry-delay.js";
import { seededRandom } from "../utils/seeded-random.js";
import type {
	AssistantMessage,
	Context,
	DeferredCancelOptions,
	DeferredFetchOptions,
	DeferredHandle,
	Model,
	StreamFunction,
	StreamOptions,
	TextContent,
	ThinkingContent,
	ToolCall,
} from "../types.js";

/**
 * A scripted provider for tests, demos and users' own tests. It replays queued assistant
 * messages as a real provider would stream them: the same events, cut into deltas, at an
 * optional speed, honouring `signal`, with usage estimated from text length. It can defer, too:
 * `deferred: true` takes the next queued reply as a job, redeemed by `streamDeferred`.
 */

export interface FauxModelDefinition {
	id: string;
	name?: string;
	reasoning?: boolean;
	input?: ("text" | "image")[];
	cost?: Model["cost"];
	contextWindow?: number;
	maxTokens?: number;
}

export type FauxContentBlock = TextContent | ThinkingContent | ToolCall;

/** Builds a reply at call time from what the model was sent. */
export type FauxResponseFactory = (
	context: Context,
	options: StreamOptions | undefined,
	state: { callCount: number },
	model: Model<string>,
) => AssistantMessage | Promise<AssistantMessage>;

export type FauxResponseStep = AssistantMessage | FauxResponseFactory;

export interface RegisterFauxProviderOptions {
	/** Default `faux`. */
	api?: string;
	/** Default `faux`. */
	provider?: string;
	/** Default one model, `faux-1`. */
	models?: FauxModelDefinition[];
	/** Streaming speed; about 4 characters make a token. Default: as fast as possible. */
	tokensPerSecond?: number;
	/** Characters per delta, picked at random in this range. Default 1 to 8. */
	tokenSize?: { min?: number; max?: number };
	/** Seed of the delta-size randomness, for reproducible event sequences. Default 1. */
	seed?: number;
	/**
	 * How many status checks find a deferred job (a `deferred: true` call) still running before
	 * it ends by itself. Default 0: the first check finds its reply. See `finishDeferred`.
	 */
	deferredChecks?: number;
}

/** A job of the scripted provider: a `deferred: true` call, its reply waiting to be redeemed. */
export interface FauxDeferredJob {
	/** The handle's `id`. */
	id: string;
	/** `running` until its checks are used up or `finishDeferred` is called; `cancelled` after `cancelDeferred`. */
	status: "running" | "done" | "cancelled";
	/** Status checks made so far (each `fetchDeferred`, each poll of `streamDeferred`). */
	checks: number;
}

export interface FauxProviderRegistration {
	api: string;
	models: [Model<string>, ...Model<string>[]];
	getModel(): Model<string>;
	getModel(modelId: string): Model<string> | undefined;
	state: { callCount: number };
	/** Replaces the queue of replies. */
	setResponses: (responses: FauxResponseStep[]) => void;
	/** Adds replies to the end of the queue. */
	appendResponses: (responses: FauxResponseStep[]) => void;
	getPendingResponseCount: () => number;
	/** The deferred jobs taken so far, oldest first: what the app's deferred flow did. */
	getDeferredJobs: () => FauxDeferredJob[];
	/** Ends deferred job `id` (every running job when omitted): its next status check finds the reply. */
	finishDeferred: (id?: string) => void;
	/** Removes the provider from the registry. */
	unregister: () => void;
}

let nextCallId = 1;
let nextRegistration = 1;
let nextJobId = 1;

export function fauxText(text: string): TextContent {
	return { type: "text", text };
}

export function fauxThinking(thinking: string): ThinkingContent {
	return { type: "thinking", thinking };
}

export function fauxToolCall(name: string, arguments_: ToolCall["arguments"], options: { id?: string } = {}): ToolCall {
	return { type: "toolCall", id: options.id ?? `faux_call_${nextCallId++}`, name, arguments: arguments_ };
}

/**
 * An assistant reply to queue. Its stop reason defaults to `toolUse` when it holds tool calls,
 * else `stop`.
 */
export function fauxAssistantMessage(
	content: string | FauxContentBlock | FauxContentBlock[],
	options: { stopReason?: AssistantMessage["stopReason"]; errorMessage?: string; responseId?: string; timestamp?: number } = {},
): AssistantMessage {
	const blocks = typeof content === "string" ? [fauxText(content)] : Array.isArray(content) ? content : [content];
	const message: AssistantMessage = {
		role: "assistant",
		content: blocks,
		api: "faux",
		provider: "faux",
		model: "faux-1",
		usage: emptyUsage(),
		stopReason: options.stopReason ?? (blocks.some((block) => block.type === "toolCall") ? "toolUse" : "stop"),
		timestamp: options.timestamp ?? Date.now(),
	};
	if (options.errorMessage !== undefined) message.errorMessage = options.errorMessage;
	if (options.responseId !== undefined) message.responseId = options.responseId;
	return message;
}

/**
 * Registers a scripted provider and returns its handle.
 *
 * @example
 * const faux = registerFauxProvider();
 * faux.setResponses([fauxAssistantMessage([fauxToolCall("calculator", { a: 3, b: 4 })]), fauxAssistantMessage("7")]);
 * const reply = await complete(faux.getModel(), context);
 */
export function registerFauxProvider(options: RegisterFauxProviderOptions = {}): FauxProviderRegistration {
	const api = options.api ?? "faux";
	const provider = options.provider ?? "faux";
	const sourceId = `faux:${nextRegistration++}`;
	const definitions = options.models && options.models.length > 0 ? options.models : [{ id: "faux-1" }];
	const models = definitions.map((definition) => fauxModel(definition, api, provider)) as [Model<string>, ...Model<string>[]];
	const queue: FauxResponseStep[] = [];
	const state = { callCount: 0 };
	const minSize = Math.max(1, options.tokenSize?.min ?? 1);
	const maxSize = Math.max(minSize, options.tokenSize?.max ?? 8);
	const random = seededRandom(options.seed ?? 1);
	const deltaSize = () => minSize + Math.floor(random() * (maxSize - minSize + 1));
	const delayPerChar = options.tokensPerSecond && options.tokensPerSecond > 0 ? 1000 / (options.tokensPerSecond * 4) : 0;

	const pace = (signal: AbortSignal | undefined) => (chars: number) =>
		delayPerChar > 0 ? delay(Math.round(chars * delayPerChar), signal) : Promise.resolve();
	/** Streams `reply` into `builder` and finishes it as the reply says. */
	const emit = async (builder: AssistantMessageBuilder, reply: AssistantMessage, context: Context, signal: AbortSignal | undefined) => {
		await replay(builder, reply, deltaSize, pace(signal));
		builder.setUsage(estimateUsage(reply, context));
		if (reply.responseId !== undefined) builder.setResponseId(reply.responseId);
		if (reply.stopReason === "aborted") {
			builder.fail(new Error(reply.errorMessage ?? "aborted"), AbortSignal.abort());
		} else if (reply.stopReason === "error" || reply.stopReason === "pending") {
			builder.finish("error", { errorMessage: reply.errorMessage ?? "Faux provider error." });
		} else {
			builder.finish(reply.stopReason, { rawStopReason: reply.rawStopReason, deferred: reply.deferred });
		}
	};

	// Deferred jobs: a `deferred: true` call takes the next queued reply at once (as a real API
	// would start processing the request) and keeps it until the job is redeemed.
	const jobs = new Map<string, FauxDeferredJob & { reply: AssistantMessage; context: Context }>();
	const runningChecks = Math.max(0, options.deferredChecks ?? 0);

	const stream: StreamFunction<string, StreamOptions> = (model, context, streamOptions) =>
		createProviderStream(model, streamOptions, async (builder) => {
			const deferring = streamOptions?.deferred !== undefined && streamOptions.deferred !== false;
			// Loaded by the first deferred call, not at import: `import "@pi/ai"` stays a few files.
			// A scripted job finishes when the test says: every well-formed completion window holds.
			if (deferring) (await import("../deferred/completion-window.js")).assertCompletionWindow(model.api, streamOptions?.deferred, 0);
			state.callCount++;
			const step = queue.shift();
			if (!step) throw new Error(`Faux provider "${provider}": no response queued for call ${state.callCount}.`);
			const reply = typeof step === "function" ? await step(context, streamOptions, state, model) : step;
			if (deferring) {
				const id = `faux_job_${nextJobId++}`;
				jobs.set(id, { id, status: "running", checks: 0, reply, context });
				builder.setResponseId(id);
				builder.finish("deferred", { rawStopReason: "running", deferred: makeHandle(model, id) });
				return;
			}
			await emit(builder, reply, context, streamOptions?.signal);
		});

	const jobOf = (model: Model<string>, handle: DeferredHandle, where: string) => {
		assertDeferredHandle(model, handle, where);
		const job = jobs.get(handle.id);
		if (!job) throw new Error(`${where}: faux provider "${provider}" has no deferred job ${handle.id} (jobs live in the registration that took them).`);
		return job;
	};

	/** Redeems a job by the polling rules every deferred API follows (`maxWaitMs`, `pollIntervalMs`, `expiresAt`, `signal`). */
	const streamDeferred = (model: Model<string>, handle: DeferredHandle, fetchOptions?: DeferredFetchOptions) =>
		createProviderStream(model, fetchOptions, async (builder) => {
			const job = jobOf(model, handle, "streamDeferred");
			const outcome = await pollJob(handle, fetchOptions, waitDeadline(fetchOptions, Number.POSITIVE_INFINITY), async () => {
				job.checks++;
				if (job.status === "running" && job.checks > runningChecks) job.status = "done";
				return job.status === "running" ? { done: false as const } : { done: true as const, value: job.status };
			});
			builder.setResponseId(job.id);
			if (outcome.kind === "waiting") {
				builder.finish("deferred", { rawStopReason: "running", deferred: structuredClone(handle) });
			} else if (outcome.value === "cancelled") {
				builder.finish("error", { rawStopReason: "cancelled", errorMessage: `The deferred job ${job.id} was cancelled before it ended.` });
			} else {
				await emit(builder, job.reply, job.context, fetchOptions?.signal);
			}
		});

	/** Cancels a running job; a job already over stays as it is (cancelling is idempotent). */
	const cancelDeferred = async (model: Model<string>, handle: DeferredHandle, _options?: DeferredCancelOptions) => {
		const job = jobOf(model, handle, "cancelDeferred");
		if (job.status === "running") job.status = "cancelled";
	};

	registerApiProvider({ api, stream, streamSimple: stream, streamDeferred, cancelDeferred }, sourceId);

	function getModel(): Model<string>;
	function getModel(modelId: string): Model<string> | undefined;
	function getModel(modelId?: string): Model<string> | undefined {
		if (modelId === undefined) return models[0];
		return models.find((model) => model.id === modelId);
	}

	return {
		api,
		models,
		getModel,
		state,
		setResponses: (responses) => {
			queue.length = 0;
			queue.push(...responses);
		},
		appendResponses: (responses) => {
			queue.push(...responses);
		},
		getPendingResponseCount: () => queue.length,
		getDeferredJobs: () => [...jobs.values()].map(({ id, status, checks }) => ({ id, status, checks })),
		finishDeferred: (id) => {
			for (const job of jobs.values()) if ((id === undefined || job.id === id) && job.status === "running") job.status = "done";
		},
		unregister: () => unregisterApiProviders(sourceId),
	};
}

/** Streams each block of `reply` in deltas of `deltaSize()` characters. */
async function replay(
	builder: AssistantMessageBuilder,
	reply: AssistantMessage,
	deltaSize: () => number,
	pace: (chars: number) => Promise<void>,
): Promise<void> {
	for (const block of reply.content) {
		if (block.type === "text") {
			const index = builder.startText(block.textSignature);
			for (const piece of pieces(block.text, deltaSize)) {
				await pace(piece.length);
				builder.appendText(index, piece);
			}
			builder.end(index);
		} else if (block.type === "thinking") {
			const index = builder.startThinking({ redacted: block.redacted, signature: block.thinkingSignature });
			for (const piece of pieces(block.thinking, deltaSize)) {
				await pace(piece.length);
				builder.appendThinking(index, piece);
			}
			builder.end(index);
		} else {
			const index = builder.startToolCall(block.id, block.name, block.thoughtSignature);
			for (const piece of pieces(JSON.stringify(block.arguments ?? {}), deltaSize)) {
				await pace(piece.length);
				builder.appendToolCallArguments(index, piece);
			}
			builder.end(index);
		}
	}
}

function* pieces(text: string, size: () => number): Generator<string> {
	for (let start = 0; start < text.length; ) {
		let end = Math.min(text.length, start + size());
		// Never split a surrogate pair: a delta is always valid text.
		if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end++;
		yield text.slice(start, end);
		start = end;
	}
}

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}

/** About four characters a token, like the usual rule of thumb. Keeps usage the reply states. */
function estimateUsage(reply: AssistantMessage, context: Context): { input: number; output: number; cacheRead: number; cacheWrite: number } {
	if (reply.usage && reply.usage.totalTokens > 0) {
		const { input, output, cacheRead, cacheWrite } = reply.usage;
		return { input, output, cacheRead, cacheWrite };
	}
	let inputChars = context.systemPrompt?.length ?? 0;
	for (const message of context.messages) inputChars += messageLength(message);
	let outputChars = 0;
	for (const block of reply.content) outputChars += blockLength(block);
	return { input: Math.ceil(inputChars / 4), output: Math.ceil(outputChars / 4), cacheRead: 0, cacheWrite: 0 };
}

/** Characters per message, measured once per message object (an estimate: later edits to a message are not seen). */
const measured = new WeakMap<object, number>();

function messageLength(message: Context["messages"][number]): number {
	let length = measured.get(message);
	if (length === undefined) {
		length = 0;
		if (typeof message.content === "string") length = message.content.length;
		else for (const block of message.content) length += blockLength(block);
		measured.set(message, length);
	}
	return length;
}

function blockLength(block: TextContent | ThinkingContent | ToolCall | { type: "image" }): number {
	switch (block.type) {
		case "text":
			return block.text.length;
		case "thinking":
			return block.thinking.length;
		case "toolCall":
			return JSON.stringify(block.arguments ?? {}).length + block.name.length;
		default:
			return 0; // images are not counted
	}
}

function fauxModel(definition: FauxModelDefinition, api: string, provider: string): Model<string> {
	return {
		id: definition.id,
		name: definition.name ?? definition.id,
		api,
		provider,
		baseUrl: "faux://local",
		reasoning: definition.reasoning ?? false,
		input: definition.input ?? ["text", "image"],
		cost: definition.cost ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: definition.contextWindow ?? 128_000,
		maxTokens: definition.maxTokens ?? 16_384,
	};
}
