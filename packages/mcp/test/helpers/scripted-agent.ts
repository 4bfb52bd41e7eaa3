import { type AssistantMessage, fauxAssistantMessage, fauxToolCall, registerFauxProvider } from "@pi/ai";
import { Agent, type AgentEvent, type AgentTool } from "@pi/agent-core";

/** One tool call the scripted model makes, in its own turn. */
export interface ScriptedCall {
	name: string;
	arguments: Record<string, unknown>;
}

/** What a scripted run shows: every event in order, and the tool results' texts and flags. */
export interface ScriptedRun {
	agent: Agent;
	events: AgentEvent[];
	/** Starts the run; resolves when it has ended (`agent_end`). */
	run: Promise<void>;
}

/**
 * An `Agent` on the scripted (faux) model of @pi/ai that calls `calls`, one per turn, then
 * says "done". `onEvent` sees each event as it comes (to abort, or kill a server, mid-call).
 */
export function runScripted(tools: AgentTool<any>[], calls: ScriptedCall[], onEvent?: (event: AgentEvent, agent: Agent) => void): ScriptedRun {
	const faux = registerFauxProvider();
	faux.setResponses([...calls.map((call): AssistantMessage => fauxAssistantMessage([fauxToolCall(call.name, call.arguments)])), fauxAssistantMessage("done")]);
	const agent = new Agent({ initialState: { model: faux.getModel(), tools } });
	const events: AgentEvent[] = [];
	agent.subscribe((event) => {
		events.push(event);
		onEvent?.(event, agent);
	});
	const run = agent.prompt("go").finally(() => faux.unregister());
	return { agent, events, run };
}

/** The `tool_execution_end` events of a run, in order: name, error flag, texts and details. */
export function toolEnds(events: AgentEvent[]): { name: string; isError: boolean; text: string; details: unknown }[] {
	return events.flatMap((event) =>
		event.type === "tool_execution_end"
			? [
					{
						name: event.toolName,
						isError: event.isError,
						text: event.result.content.map((block: { type: string; text?: string }) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n"),
						details: event.result.details,
					},
				]
			: [],
	);
}
