import type { EventStream } from "@pi/ai";
import type { Agent, AgentEvent, AgentMessage } from "../../src/index.js";

/** Reads a loop's event stream to its end; returns the events and the result. */
export async function collect(stream: EventStream<AgentEvent, AgentMessage[]>): Promise<{ events: AgentEvent[]; result: AgentMessage[] }> {
	const events: AgentEvent[] = [];
	for await (const event of stream) events.push(event);
	return { events, result: await stream.result() };
}

/** Records every event an agent emits from now on. */
export function record(agent: Agent): AgentEvent[] {
	const events: AgentEvent[] = [];
	agent.subscribe((event) => {
		events.push(event);
	});
	return events;
}

/** A user message. */
export function user(text: string): AgentMessage {
	return { role: "user", content: text, timestamp: Date.now() };
}

/** The text of a message's content. */
export function textOf(message: AgentMessage | undefined): string {
	if (!message || !("content" in message)) return "";
	const content = (message as { content: unknown }).content;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content.map((block: { type: string; text?: string }) => (block.type === "text" ? block.text : "")).join("");
}

/** A promise with its resolve function, for gating async work in tests. */
export function gate<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
	let resolve!: (value: T) => void;
	const promise = new Promise<T>((r) => {
		resolve = r;
	});
	return { promise, resolve };
}
