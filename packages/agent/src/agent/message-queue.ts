import type { AgentMessage } from "../types.js";

/**
 * How a queue hands out its messages when the loop polls it: `one-at-a-time` gives the oldest
 * message (one per turn), `all` gives everything queued.
 */
export type QueueMode = "all" | "one-at-a-time";

/**
 * The steering modes: a {@link QueueMode}, or `interrupt` (beyond the reference API), which cuts
 * the reply being generated short and delivers everything queued before the next model call.
 */
export type SteeringMode = QueueMode | "interrupt";

/** A FIFO of messages waiting for the loop; `drain` takes what one poll delivers. */
export class MessageQueue<TMode extends SteeringMode = SteeringMode> {
	private items: AgentMessage[] = [];

	constructor(public mode: TMode) {}

	get length(): number {
		return this.items.length;
	}

	push(message: AgentMessage): void {
		this.items.push(message);
	}

	/** Removes and returns what one poll delivers: the oldest message, or all of them. */
	drain(): AgentMessage[] {
		if (this.items.length === 0) return [];
		if (this.mode === "one-at-a-time") return this.items.splice(0, 1);
		const all = this.items;
		this.items = [];
		return all;
	}

	clear(): void {
		this.items = [];
	}
}
