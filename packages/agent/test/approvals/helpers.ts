import { type Agent, type AgentEvent, type AgentMessage, type AgentTool, defineTool } from "@pi/agent-core";
import type { ToolResultMessage } from "@pi/ai";
import { Type } from "typebox";

export const pathParams = Type.Object({ path: Type.String() });

/** A tool that records each path it ran with; `needsApproval` as given. */
export function fileTool(name: string, needsApproval: AgentTool<typeof pathParams>["needsApproval"], ran: string[] = []): AgentTool<typeof pathParams> & { ran: string[] } {
	const tool = defineTool({
		name,
		label: name,
		description: `The ${name} tool.`,
		parameters: pathParams,
		needsApproval,
		execute: async (_id, { path }) => {
			ran.push(`${name}:${path}`);
			return { content: [{ type: "text", text: `${name} done: ${path}` }], details: { path } };
		},
	});
	return Object.assign(tool, { ran });
}

/** Tool-result texts by call id. */
export function resultTexts(messages: readonly AgentMessage[]): Record<string, string> {
	const texts: Record<string, string> = {};
	for (const message of messages) {
		if ((message as { role: string }).role !== "toolResult") continue;
		const result = message as ToolResultMessage;
		texts[result.toolCallId] = result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
	}
	return texts;
}

/** Splits the events an agent emitted into runs (agent_start … agent_end). */
export function runsOf(events: readonly AgentEvent[]): AgentEvent[][] {
	const runs: AgentEvent[][] = [];
	for (const event of events) {
		if (event.type === "agent_start") runs.push([]);
		runs.at(-1)?.push(event);
	}
	return runs;
}

/** `finish()`, which needs approval; its result asks the run to terminate. */
export function finishTool(): AgentTool {
	return defineTool({
		name: "finish",
		label: "Finish",
		description: "Ends the task.",
		parameters: Type.Object({}),
		needsApproval: true,
		execute: async () => ({ content: [{ type: "text", text: "finished" }], details: {}, terminate: true }),
	});
}

/**
 * `slow()`, which needs approval: once it runs it aborts `agent()`'s run and waits for its signal.
 * `runs` counts its executions.
 */
export function abortingTool(agent: () => Agent): AgentTool & { runs: number } {
	const tool = defineTool({
		name: "slow",
		label: "Slow",
		description: "Waits for its signal.",
		parameters: Type.Object({}),
		needsApproval: true,
		execute: (_id, _args, signal) => {
			counted.runs++;
			setImmediate(() => agent().abort());
			return new Promise<never>((_resolve, reject) => signal?.addEventListener("abort", () => reject(new Error("stopped")), { once: true }));
		},
	});
	const counted = Object.assign(tool, { runs: 0 });
	return counted;
}
