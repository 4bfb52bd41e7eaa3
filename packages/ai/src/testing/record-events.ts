import type { AssistantMessage, AssistantMessageEvent, StopReason } from "../types.js";

/**
 * Anything that streams assistant events and settles a final message, such as the
 * `AssistantMessageEventStream` returned by `stream()` or a provider's stream function.
 */
export interface AssistantEventSource extends AsyncIterable<AssistantMessageEvent> {
	result(): Promise<AssistantMessage>;
}

/** The events of one stream, in order, and what its `result()` settled with. */
export interface CollectedEvents {
	events: AssistantMessageEvent[];
	message: AssistantMessage;
}

/**
 * What the live `partial` message looked like when an event arrived. `partial` is one object that
 * keeps changing, so this is the only way to check its state at event time after the fact.
 */
export interface PartialState {
	/** `partial.stopReason` at that moment. */
	stopReason: StopReason;
	/** For block events: the type of `partial.content[contentIndex]` at that moment, `undefined` when missing. */
	blockType: string | undefined;
}

/**
 * {@link CollectedEvents} plus one {@link PartialState} per event. An entry is `undefined` for the
 * terminal event and for events pushed before `recordEvents` was called (such as a `start` pushed
 * while the stream was created): their state at push time is unknown, so the checker skips them.
 */
export interface RecordedEvents extends CollectedEvents {
	partialStates: (PartialState | undefined)[];
}

/** A source whose producer side can be observed: `AssistantMessageEventStream` is one. */
export interface PushableEventSource extends AssistantEventSource {
	push(event: AssistantMessageEvent): void;
}

/** Options of {@link collectEvents} and {@link recordEvents}. */
export interface CollectEventsOptions {
	/**
	 * Fail with the events seen so far when the stream has not ended after this many milliseconds:
	 * a clearer failure than a test timeout (the @pi/ai suite allows 60 s). `0` waits forever. Default `30_000`.
	 */
	timeoutMs?: number;
}

/**
 * Iterates a stream to its end and returns its events and `await stream.result()`.
 *
 * Rejects with an `Error` listing the event types seen so far when the stream has not ended
 * within `timeoutMs` (default 30 s: generous, so that a machine shared by several test runs does
 * not fail a slow but healthy stream), so a hanging provider fails with evidence.
 *
 * @example
 * ```ts
 * const { events, message } = await collectEvents(stream(model, context));
 * assertEventProtocol({ events, message });
 * ```
 */
export function collectEvents(source: AssistantEventSource, options: CollectEventsOptions = {}): Promise<CollectedEvents> {
	return collect(source, options);
}

/**
 * Like {@link collectEvents}, and also snapshots the live `partial` at the moment each event is
 * pushed, so that {@link assertEventProtocol} can check the rules about state during streaming
 * (`partial.stopReason` stays `pending`; `partial.content[contentIndex]` is the event's block).
 *
 * The snapshot must be taken at push time, not when the consumer gets the event: a producer often
 * pushes several events (and finishes) in one go before the consumer runs. So this wraps the
 * stream's `push` for as long as it records. Call it right after creating the stream, before
 * awaiting anything; events pushed earlier get no snapshot.
 *
 * @example
 * ```ts
 * assertEventProtocol(await recordEvents(stream(model, context)));
 * ```
 */
export function recordEvents(source: PushableEventSource, options: CollectEventsOptions = {}): Promise<RecordedEvents> {
	const snapshots = new Map<AssistantMessageEvent, PartialState>();
	const hadOwnPush = Object.hasOwn(source, "push");
	const originalPush = source.push;
	source.push = (event: AssistantMessageEvent): void => {
		const state = stateOf(event);
		if (state && !snapshots.has(event)) snapshots.set(event, state);
		originalPush.call(source, event);
	};
	const restore = () => {
		if (hadOwnPush) source.push = originalPush;
		else delete (source as Partial<PushableEventSource>).push;
	};
	return collect(source, options).then(
		({ events, message }) => {
			restore();
			return { events, message, partialStates: events.map((event) => snapshots.get(event)) };
		},
		(error: unknown) => {
			restore();
			throw error;
		},
	);
}

async function collect(source: AssistantEventSource, options: CollectEventsOptions): Promise<CollectedEvents> {
	const events: AssistantMessageEvent[] = [];
	const run = async (): Promise<CollectedEvents> => {
		for await (const event of source) events.push(event);
		return { events, message: await source.result() };
	};
	const timeoutMs = options.timeoutMs ?? 30_000;
	if (timeoutMs <= 0) return run();
	let timer: ReturnType<typeof setTimeout> | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => {
			const seen = events.map((event) => event.type).join(", ") || "none";
			reject(new Error(`The stream did not end within ${timeoutMs} ms. ${events.length} event(s) so far: ${seen}`));
		}, timeoutMs);
	});
	try {
		return await Promise.race([run(), timeout]);
	} finally {
		clearTimeout(timer);
	}
}

function stateOf(event: AssistantMessageEvent): PartialState | undefined {
	if (event.type === "done" || event.type === "error") return undefined;
	const partial = event.partial;
	const blockType = event.type === "start" ? undefined : partial.content[event.contentIndex]?.type;
	return { stopReason: partial.stopReason, blockType };
}
