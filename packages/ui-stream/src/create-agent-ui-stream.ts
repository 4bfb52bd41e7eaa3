import type { Agent, AgentEvent, AgentMessage } from "@pi/agent-core";
import type { AssistantMessage } from "@pi/ai";
import { createAgentEventChunks, finishReasonOf } from "./agent-event-chunks.js";
import { addUsage, PI_KEY, type PiMessageMetadata, type PiStepMetadata, zeroUsage } from "./pi-metadata.js";
import { type PreparedRun, prepareAgentRun } from "./prepare-agent-run.js";
import { stepMetadata } from "./to-ui-messages.js";
import type { UIMessageChunk, UIMessageInput } from "./ui-message.js";

/** What `messageMetadata` is told: where the stream is, and the run's messages so far. */
export interface MessageMetadataContext {
	/** `start`: the stream's first chunk; `finish`: its last. */
	phase: "start" | "finish";
	/** The messages the run added so far (none at `start`). */
	messages: readonly AgentMessage[];
	/** The default metadata ({@link PiMessageMetadata}), at `finish` when the run called the model. */
	defaultMetadata: PiMessageMetadata | undefined;
}

/** Options of `createAgentUIStream` and `createAgentUIStreamResponse`. */
export interface AgentUIStreamOptions {
	/** The agent that answers. With a session, the history is the session's (see docs/use-chat.md). */
	agent: Agent;
	/** The UI messages `useChat` sent (`(await request.json()).messages`). */
	uiMessages: readonly UIMessageInput[];
	/** Aborts the run (`request.signal`): the model call is cancelled, the partial reply kept as `aborted`. */
	signal?: AbortSignal;
	/**
	 * The assistant message's metadata, sent on `start` and `finish`. Default: at `finish`,
	 * `{ model, provider, usage, pi: { steps } }` ({@link PiMessageMetadata}, usage with cost).
	 * Return `undefined` to send none.
	 */
	messageMetadata?: (context: MessageMetadataContext) => unknown;
	/** Stream thinking as `reasoning-*` chunks. Default `true`. */
	sendReasoning?: boolean;
}

/**
 * The agent's answer to a `useChat` request as a stream of UI message chunks (the AI SDK's
 * `UIMessageChunk`s): `start`, a step per model call, tool calls, results and approval
 * requests, then `finish`. A failed run sends an `error` chunk (its text names the problem and
 * never holds a key) and still ends with `finish`. Bad `uiMessages` end it with an `error`
 * chunk before any model call (`createAgentUIStreamResponse` answers them with a 400 instead).
 * Cancelling the stream aborts the agent.
 *
 * @example
 * ```ts
 * const stream = createAgentUIStream({ agent, uiMessages: body.messages, signal: request.signal });
 * for await (const chunk of stream) console.log(chunk.type);
 * ```
 */
export function createAgentUIStream(options: AgentUIStreamOptions): ReadableStream<UIMessageChunk> {
	return streamPreparedRun(options, prepareAgentRun(options.agent, options.uiMessages));
}

/** The stream of a run being prepared: its chunks as objects. */
export function streamPreparedRun(options: AgentUIStreamOptions, preparing: Promise<PreparedRun>): ReadableStream<UIMessageChunk> {
	let closed = false;
	return new ReadableStream<UIMessageChunk>({
		start(controller) {
			void runPrepared(options, preparing, (chunk) => {
				if (!closed) controller.enqueue(chunk);
			}).finally(() => {
				if (closed) return;
				closed = true;
				controller.close();
			});
		},
		cancel() {
			// The client went away (useChat's stop(), a closed tab): stop the model call too.
			closed = true;
			options.agent.abort();
		},
	});
}

/**
 * Runs a prepared request, handing each chunk to `send` in order: `start`, the run's chunks,
 * `finish` (after an `error` chunk when anything failed). Resolves when the last is sent; never rejects.
 */
export async function runPrepared(options: AgentUIStreamOptions, preparing: Promise<PreparedRun>, send: (chunk: UIMessageChunk) => void): Promise<void> {
	const { agent, signal } = options;
	const chunksOf = createAgentEventChunks({ sendReasoning: options.sendReasoning ?? true });
	const added: AgentMessage[] = [];
	const listener = (event: AgentEvent) => {
		if (event.type === "message_end") added.push(event.message);
		const chunks = chunksOf(event);
		for (let index = 0; index < chunks.length; index++) send(chunks[index] as UIMessageChunk);
	};
	const abort = () => agent.abort();
	let unsubscribe: (() => void) | undefined;
	try {
		const prepared = await preparing;
		const start: UIMessageChunk = { type: "start" };
		if (prepared.replyKey !== undefined) start.messageId = prepared.replyKey;
		const startMetadata = options.messageMetadata?.({ phase: "start", messages: added, defaultMetadata: undefined });
		if (startMetadata !== undefined) start.messageMetadata = startMetadata;
		send(start);
		unsubscribe = agent.subscribe(listener);
		if (signal?.aborted) return;
		signal?.addEventListener("abort", abort, { once: true });
		await prepared.run();
		const defaultMetadata = runMetadata(added, prepared.continues ? prepared.previousMetadata : undefined);
		const metadata = options.messageMetadata ? options.messageMetadata({ phase: "finish", messages: added, defaultMetadata }) : defaultMetadata;
		const finish: UIMessageChunk = { type: "finish", finishReason: finishReasonOf(lastReply(added)?.stopReason) };
		if (metadata !== undefined) finish.messageMetadata = metadata;
		send(finish);
	} catch (error) {
		send({ type: "error", errorText: error instanceof Error ? error.message : String(error) });
		send({ type: "finish", finishReason: "error" });
	} finally {
		unsubscribe?.();
		signal?.removeEventListener("abort", abort);
	}
}

/**
 * The default metadata of the reply: the last step's model and provider, the usage of every
 * step (with those of the message it continues), and each step's record under `pi`.
 */
function runMetadata(messages: readonly AgentMessage[], previous: unknown): PiMessageMetadata | undefined {
	const replies = messages.filter((message): message is AssistantMessage => (message as { role?: unknown }).role === "assistant");
	const last = replies[replies.length - 1];
	if (!last) return undefined;
	const before = previousSteps(previous);
	const steps = [...before, ...replies.map(stepMetadata)];
	const usage = steps.reduce((total, step) => addUsage(total, step.usage), zeroUsage());
	return { model: last.model, provider: last.provider, usage, [PI_KEY]: { steps } } as PiMessageMetadata;
}

function previousSteps(metadata: unknown): PiStepMetadata[] {
	const pi = (metadata as { pi?: { steps?: unknown } } | undefined)?.pi;
	return Array.isArray(pi?.steps) ? (pi.steps as PiStepMetadata[]) : [];
}

function lastReply(messages: readonly AgentMessage[]): AssistantMessage | undefined {
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index] as AgentMessage;
		if ((message as { role?: unknown }).role === "assistant") return message as AssistantMessage;
	}
	return undefined;
}
