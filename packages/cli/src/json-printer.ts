/**
 * `--json`: one JSON object per line on standard output, for scripts.
 *
 * - each streamed event of a reply (`start`, the blocks' events, `done` or `error`), without its `partial` message (which would repeat the whole
 *   reply on every line): `{"type":"text_delta","contentIndex":0,"delta":"Hel"}`;
 * - `tool_execution_start` / `tool_execution_end` / `tool_approval_request` as the agent emits them;
 * - `{"type":"message_end","message":{…}}` for every finished assistant message and tool result;
 * - last, `{"type":"result",…}` with the final message, usage, cost and the session (written by
 *   the prompt command).
 */
import type { AgentEvent } from "@pi/agent-core";
import type { AssistantMessageEvent } from "@pi/ai";
import type { OutputStream } from "./terminal/style.js";

/** An assistant stream event as `--json` prints it: no `partial`, and no copy of the final message. */
export function slimEvent(event: AssistantMessageEvent): Record<string, unknown> {
	if (event.type === "done") return { type: "done", reason: event.reason };
	if (event.type === "error") return { type: "error", reason: event.reason, errorMessage: event.error.errorMessage };
	const { partial: _partial, ...rest } = event;
	return rest;
}

/** Writes a run's events as JSON lines. */
export class JsonPrinter {
	constructor(private readonly stdout: OutputStream) {}

	/** Writes one object as a line. */
	line(value: unknown): void {
		this.stdout.write(`${JSON.stringify(value)}\n`);
	}

	handle(event: AgentEvent): void {
		switch (event.type) {
			case "message_start":
				// The agent reports a reply's `start` as message_start; print it as the stream's own event.
				if (event.message.role === "assistant") this.line({ type: "start" });
				return;
			case "message_update":
				this.line(slimEvent(event.assistantMessageEvent));
				return;
			case "tool_execution_start":
			case "tool_execution_end":
			case "tool_approval_request":
				this.line(event);
				return;
			case "message_end":
				if (event.message.role === "assistant") {
					// Likewise the terminal `done` / `error` event arrives as message_end.
					const { stopReason, errorMessage } = event.message;
					this.line(stopReason === "error" || stopReason === "aborted" ? { type: "error", reason: stopReason, errorMessage } : { type: "done", reason: stopReason });
				}
				if (event.message.role === "assistant" || event.message.role === "toolResult") this.line({ type: "message_end", message: event.message });
				return;
			default:
				return;
		}
	}
}
