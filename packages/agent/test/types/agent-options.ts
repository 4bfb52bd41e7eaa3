/**
 * Type-level test, checked by `tsc` (the `typecheck` script), never run: the run options are
 * fields of the instance, as in the reference; `convertToLlm` and `toolExecution` always hold a
 * value (their defaults), the others may be unset.
 */
import type { Agent } from "@pi/agent-core";

export function runOptionsOnTheInstance(agent: Agent): void {
	void agent.convertToLlm([]);
	const mode: "sequential" | "parallel" = agent.toolExecution;
	void mode;
	// @ts-expect-error: `maxTurns` may be unset.
	const turns: number = agent.maxTurns;
	void turns;
	agent.maxTurns = 3;
}
