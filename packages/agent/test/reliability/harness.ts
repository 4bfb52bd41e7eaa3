/**
 * Shared pieces of the agent reliability suite: an Agent over the REAL anthropic-messages provider
 * (default `streamSimple`) talking to a local replay server, Anthropic SSE bodies, an event-order
 * check, and a check that no queued message was lost.
 */
import type { Model } from "@pi/ai";
import { type ReplayServer, sseResponse } from "@pi/ai/testing";
import { Type } from "typebox";
import { expect } from "vitest";
import { Agent, type AgentEvent, type AgentMessage, type AgentOptions, type AgentTool } from "../../src/index.js";

/** A distinctive fake key: it must appear in no event and no message. */
export const FAKE_KEY = "sk-ant-RELIABILITY-agent-key-4e1b9d";

/** An Anthropic model whose API is the replay server. */
export function serverModel(server: ReplayServer): Model<"anthropic-messages"> {
	return {
		id: "claude-sonnet-4-5-20250929",
		name: "Claude (reliability)",
		api: "anthropic-messages",
		provider: "anthropic",
		baseUrl: server.url,
		reasoning: false,
		input: ["text", "image"],
		cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		contextWindow: 200_000,
		maxTokens: 8_192,
	};
}

function frame(event: string, data: unknown): string {
	return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

const START = frame("message_start", { type: "message_start", message: { id: "msg_rel", usage: { input_tokens: 9, output_tokens: 1 } } });

/** A reply of plain text, in two deltas. */
export function textReply(text: string) {
	const half = Math.ceil(text.length / 2);
	return sseResponse(
		START +
			frame("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }) +
			frame("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: text.slice(0, half) } }) +
			frame("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: text.slice(half) } }) +
			frame("content_block_stop", { type: "content_block_stop", index: 0 }) +
			frame("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 4 } }) +
			frame("message_stop", { type: "message_stop" }),
	);
}

/** A reply with one tool call whose arguments JSON streams in `fragments`. */
export function toolReply(id: string, name: string, fragments: string[]) {
	return sseResponse(
		START +
			frame("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "tool_use", id, name, input: {} } }) +
			fragments.map((partial_json) => frame("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json } })).join("") +
			frame("content_block_stop", { type: "content_block_stop", index: 0 }) +
			frame("message_delta", { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 12 } }) +
			frame("message_stop", { type: "message_stop" }),
	);
}

export const echoParams = Type.Object({ text: Type.String() });

/** `echo(text)`: reports progress once, then returns the text. `run` may replace its body. */
export function echoTool(run?: (signal: AbortSignal | undefined) => Promise<void> | void): AgentTool<typeof echoParams> & { calls: number } {
	const tool = {
		name: "echo",
		label: "Echo",
		description: "Echoes its text.",
		parameters: echoParams,
		calls: 0,
		execute: async (_id: string, params: { text: string }, signal?: AbortSignal, onUpdate?: (partial: { content: { type: "text"; text: string }[]; details: unknown }) => void) => {
			tool.calls++;
			onUpdate?.({ content: [{ type: "text", text: "working" }], details: {} });
			await run?.(signal);
			return { content: [{ type: "text" as const, text: params.text }], details: {} };
		},
	};
	return tool;
}

/** An agent on `server` with the key from `getApiKey`, recording every event. */
export function serverAgent(server: ReplayServer, options: AgentOptions = {}, tools: AgentTool<any>[] = [echoTool()]) {
	const agent = new Agent({
		getApiKey: () => FAKE_KEY,
		...options,
		initialState: { model: serverModel(server), systemPrompt: "Be brief.", tools, ...options.initialState },
	});
	const events: AgentEvent[] = [];
	agent.subscribe((event) => {
		events.push(event);
	});
	return { agent, events };
}

export function user(text: string): AgentMessage {
	return { role: "user", content: text, timestamp: Date.now() };
}

/**
 * The event order of every run in `events` (runs follow each other): agent_start … agent_end once
 * each; turns and messages do not nest and all close; tools start and end inside a turn; final
 * assistant messages are never pending and say why they failed.
 */
export function expectWellFormedRuns(events: readonly AgentEvent[]): void {
	let inRun = false;
	let inTurn = false;
	let openMessage = false;
	const openTools = new Set<string>();
	events.forEach((event, index) => {
		const where = `event ${index} (${event.type}) of ${events.map((e) => e.type).join(",")}`;
		switch (event.type) {
			case "agent_start":
				expect(inRun, where).toBe(false);
				inRun = true;
				break;
			case "agent_end":
				expect(inRun && !inTurn && !openMessage && openTools.size === 0, where).toBe(true);
				inRun = false;
				break;
			case "turn_start":
				expect(inRun && !inTurn, where).toBe(true);
				inTurn = true;
				break;
			case "turn_end":
				expect(inTurn && !openMessage && openTools.size === 0, where).toBe(true);
				inTurn = false;
				break;
			case "message_start":
				expect(inTurn && !openMessage, where).toBe(true);
				openMessage = true;
				break;
			case "message_update":
				expect(openMessage, where).toBe(true);
				break;
			case "message_end": {
				expect(openMessage, where).toBe(true);
				openMessage = false;
				const message = event.message as { role: string; stopReason?: string; errorMessage?: string };
				if (message.role === "assistant") {
					expect(message.stopReason, where).not.toBe("pending");
					if (message.stopReason === "error" || message.stopReason === "aborted") expect(message.errorMessage, where).toBeTruthy();
				}
				break;
			}
			case "tool_execution_start":
				expect(inTurn && !openTools.has(event.toolCallId), where).toBe(true);
				openTools.add(event.toolCallId);
				break;
			case "tool_execution_update":
				expect(openTools.has(event.toolCallId), where).toBe(true);
				break;
			case "tool_execution_end":
				expect(openTools.delete(event.toolCallId), where).toBe(true);
				break;
		}
	});
	expect(inRun, "the last run ended with agent_end").toBe(false);
	expect(JSON.stringify(events)).not.toContain(FAKE_KEY);
}

/** The text of user messages in a transcript. */
export function userTexts(messages: readonly AgentMessage[]): string[] {
	return messages.flatMap((message) => {
		const m = message as { role: string; content: unknown };
		if (m.role !== "user") return [];
		return typeof m.content === "string" ? [m.content] : (m.content as { type: string; text?: string }[]).map((part) => part.text ?? "");
	});
}

/**
 * Delivers whatever is still queued, with `continue()`, answering each model call with text, and
 * expects every one of `queued` in the transcript exactly once afterwards: nothing was lost, and
 * nothing was delivered twice.
 */
export async function expectNoQueuedMessageLost(agent: Agent, server: ReplayServer, queued: string[]): Promise<void> {
	server.reset();
	for (let i = 0; i < 12; i++) server.enqueue(textReply(`drained ${i}`));
	for (let round = 0; round < 6 && agent.hasQueuedMessages(); round++) await agent.continue();
	expect(agent.hasQueuedMessages()).toBe(false);
	const texts = userTexts(agent.state.messages);
	for (const text of queued) expect(texts.filter((candidate) => candidate === text), `"${text}" in ${JSON.stringify(texts)}`).toHaveLength(1);
}
