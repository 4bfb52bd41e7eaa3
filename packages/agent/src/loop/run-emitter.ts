import { RunFailure } from "./run-failure.js";
import type { AgentEvent, AgentMessage } from "../types.js";

/**
 * Receives the events of a run. The loop awaits it before going on, so an async sink (the
 * `Agent`'s listeners) paces the run. A throw or rejection ends the run (see `RunEmitter`).
 */
export type AgentEventSink = (event: AgentEvent) => Promise<void> | void;

/**
 * Delivers one run's events to its sink one at a time and in order, even when concurrent tools
 * report progress, and remembers what is open (a turn, a message) so that a
 * failing run can close everything it opened.
 *
 * A sink that throws fails the run: the `emit` that delivered the event rejects with a
 * {@link RunFailure}; a failure from a detached event (tool progress) is kept and thrown by the
 * next `emit`. Once the run is winding down (`windingDown`), sink errors are ignored.
 */
export class RunEmitter {
	/** A turn started and has not ended. */
	turnOpen = false;
	/** The message between its `message_start` and `message_end`, if any. */
	openMessage: AgentMessage | undefined;
	/** Set once the run is failing or ending: from then on sink errors are ignored. */
	windingDown = false;
	/** The first failure of a detached delivery, thrown by the next `emit`. */
	failure: RunFailure | undefined;
	/** Called once when a detached delivery fails, so the run can stop its tools at once. */
	onDetachedFailure: (() => void) | undefined;
	private tail: Promise<void> = Promise.resolve();

	constructor(private readonly sink: AgentEventSink) {}

	/** Delivers `event` after every event emitted before it. Rejects with a `RunFailure` if the run failed. */
	emit(event: AgentEvent): Promise<void> {
		this.track(event);
		const delivered = this.tail.then(() => this.deliver(event));
		this.tail = delivered.then(ignore, ignore);
		return delivered;
	}

	/** Emits without waiting (tool progress). A failure is kept and thrown by the next `emit`. */
	emitDetached(event: AgentEvent): void {
		this.emit(event).catch((error: unknown) => this.recordFailure(error));
	}

	/** Throws the failure of a detached delivery, if any. */
	throwIfFailed(): void {
		if (this.failure && !this.windingDown) throw this.failure;
	}

	private async deliver(event: AgentEvent): Promise<void> {
		try {
			await this.sink(event);
		} catch (error) {
			if (!this.windingDown) throw error instanceof RunFailure ? error : new RunFailure("event listener", error);
		}
		this.throwIfFailed();
	}

	private recordFailure(error: unknown): void {
		if (this.windingDown || this.failure) return;
		this.failure = error instanceof RunFailure ? error : new RunFailure("event listener", error);
		this.onDetachedFailure?.();
	}

	private track(event: AgentEvent): void {
		switch (event.type) {
			case "turn_start":
				this.turnOpen = true;
				break;
			case "turn_end":
				this.turnOpen = false;
				break;
			case "message_start":
				this.openMessage = event.message;
				break;
			case "message_end":
				this.openMessage = undefined;
				break;
		}
	}
}

function ignore(): void {}
