import type { AssistantMessage, AssistantMessageEvent } from "./message-types.js";

/**
 * A push-based async iterable with a final result.
 *
 * The producer calls `push(event)` and, once, `end(result?)`. A consumer iterates the events with
 * `for await` and/or awaits `result()`. Events pushed before anyone iterates are buffered.
 * A terminal event (as told by `isTerminal`) settles the result and ends the iteration after it;
 * anything pushed after that is ignored.
 *
 * Contract: `result()` never rejects. It settles with the terminal event's result, or with the
 * value given to `end()`, or, when the stream ends without either, with `fallback()`.
 */
export class EventStream<T, R = T> implements AsyncIterable<T> {
	private readonly queue: T[] = [];
	private head = 0;
	private waiting: ((next: IteratorResult<T>) => void) | undefined;
	private closed = false;
	private readonly settled: Promise<R>;
	private settle!: (value: R) => void;

	constructor(
		private readonly isTerminal: (event: T) => boolean,
		private readonly resultOf: (event: T) => R,
		private readonly fallback?: () => R,
	) {
		this.settled = new Promise<R>((resolve) => {
			this.settle = resolve;
		});
	}

	/** True once a terminal event was pushed or `end()` was called. */
	get isDone(): boolean {
		return this.closed;
	}

	push(event: T): void {
		if (this.closed) return;
		if (this.isTerminal(event)) {
			this.closed = true;
			this.settle(this.resultOf(event));
		}
		const waiting = this.waiting;
		if (waiting) {
			this.waiting = undefined;
			waiting({ value: event, done: false });
		} else {
			this.queue.push(event);
		}
	}

	/** Ends the stream. `result` settles `result()` unless a terminal event already did. */
	end(result?: R): void {
		if (!this.closed) {
			this.closed = true;
			if (result !== undefined) this.settle(result);
			else if (this.fallback) this.settle(this.fallback());
		}
		const waiting = this.waiting;
		if (waiting && this.head >= this.queue.length) {
			this.waiting = undefined;
			waiting({ value: undefined, done: true });
		}
	}

	/** The final result. Never rejects. */
	result(): Promise<R> {
		return this.settled;
	}

	[Symbol.asyncIterator](): AsyncIterator<T> {
		return {
			next: (): Promise<IteratorResult<T>> => {
				if (this.head < this.queue.length) {
					const value = this.queue[this.head] as T;
					this.queue[this.head] = undefined as T; // release the reference for the GC
					this.head++;
					if (this.head === this.queue.length) {
						this.queue.length = 0;
						this.head = 0;
					}
					return Promise.resolve({ value, done: false });
				}
				if (this.closed) return Promise.resolve({ value: undefined, done: true });
				return new Promise((resolve) => {
					this.waiting = resolve;
				});
			},
			return: (): Promise<IteratorResult<T>> => Promise.resolve({ value: undefined, done: true }),
		};
	}
}

/**
 * The stream of one assistant reply: `AssistantMessageEvent`s, then the final `AssistantMessage`.
 *
 * `result()` always settles with a final message. If the producer ends the stream without a
 * terminal event, the result is the last partial message turned into an `error` message.
 */
export class AssistantMessageEventStream extends EventStream<AssistantMessageEvent, AssistantMessage> {
	private lastPartial: AssistantMessage | undefined;

	constructor() {
		super(
			(event) => event.type === "done" || event.type === "error",
			(event) => {
				if (event.type === "done") return event.message;
				if (event.type === "error") return event.error;
				throw new Error("unreachable: not a terminal event");
			},
			() => this.unterminated(),
		);
	}

	override push(event: AssistantMessageEvent): void {
		if ("partial" in event) this.lastPartial = event.partial;
		super.push(event);
	}

	private unterminated(): AssistantMessage {
		const partial = this.lastPartial;
		return {
			role: "assistant",
			content: partial?.content ?? [],
			api: partial?.api ?? "unknown",
			provider: partial?.provider ?? "unknown",
			model: partial?.model ?? "unknown",
			usage: partial?.usage ?? emptyUsage(),
			stopReason: "error",
			errorMessage: "The stream ended without a final event.",
			timestamp: partial?.timestamp ?? Date.now(),
		};
	}
}

/** Creates an empty `AssistantMessageEventStream`, for custom providers. */
/**
 * What a consumer needs of an assistant event stream: async iteration over the events and
 * `result()`. The agent's `StreamFn` returns this structural type, so a user's own stream class
 * (or the reference's `AssistantMessageEventStream`) fits without extending ours.
 */
export interface AssistantMessageEventSource extends AsyncIterable<AssistantMessageEvent> {
	result(): Promise<AssistantMessage>;
}

export function createAssistantMessageEventStream(): AssistantMessageEventStream {
	return new AssistantMessageEventStream();
}

/** A `Usage` with every count and cost at zero. */
export function emptyUsage(): AssistantMessage["usage"] {
	return {
		input: 0,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 0,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}
