/**
 * Type-level test, checked by `tsc` (the `typecheck` script), never run: the tool events of
 * `AgentEvent` carry no `any`. A handler must narrow `args` and `details` before using them, and
 * `result` is an `AgentToolResult`, so its `content` is typed.
 */
import type { AgentEvent, AgentToolResult } from "@pi/agent-core";

/** `true` only for `any`: `0 extends 1 & T` holds for no other type. */
type IsAny<T> = 0 extends 1 & T ? true : false;

type ToolEnd = Extract<AgentEvent, { type: "tool_execution_end" }>;
type ToolUpdate = Extract<AgentEvent, { type: "tool_execution_update" }>;
type ToolStart = Extract<AgentEvent, { type: "tool_execution_start" }>;

export const resultIsNotAny: IsAny<ToolEnd["result"]> = false;
export const detailsAreNotAny: IsAny<ToolEnd["result"]["details"]> = false;
export const partialResultIsNotAny: IsAny<ToolUpdate["partialResult"]> = false;
export const argsAreNotAny: IsAny<ToolStart["args"]> = false;

export function onEnd(event: ToolEnd): string {
	const result: AgentToolResult<unknown> = event.result;
	const first = result.content[0];
	// @ts-expect-error: `details` is unknown until the handler narrows it.
	void result.details.sum;
	// @ts-expect-error: `args` is unknown until the handler narrows it.
	void ({} as ToolStart).args.text;
	return first?.type === "text" ? first.text : "";
}
