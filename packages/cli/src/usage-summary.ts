/**
 * The line that follows each reply on standard error: model, tokens, cost and time, e.g.
 * `anthropic/claude-haiku-4-5 · 43 in · 282 out · $0.001453 · 2.4 s`.
 */
import type { AgentMessage } from "@pi/agent-core";
import type { AssistantMessage, Model, Usage } from "@pi/ai";

/** Usage summed over the assistant messages of a run (one per model call). */
export function sumUsage(messages: readonly AgentMessage[]): Usage {
	const total: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
	for (const message of messages) {
		if ((message as { role?: string }).role !== "assistant") continue;
		const usage = (message as AssistantMessage).usage;
		if (!usage) continue;
		total.input += usage.input;
		total.output += usage.output;
		total.cacheRead += usage.cacheRead;
		total.cacheWrite += usage.cacheWrite;
		total.totalTokens += usage.totalTokens;
		total.cost.input += usage.cost.input;
		total.cost.output += usage.cost.output;
		total.cost.cacheRead += usage.cost.cacheRead;
		total.cost.cacheWrite += usage.cost.cacheWrite;
		total.cost.total += usage.cost.total;
	}
	return total;
}

/** US dollars, with enough digits that a cheap reply does not show as $0.00. */
export function formatCost(dollars: number): string {
	if (dollars === 0) return "$0";
	return dollars >= 0.01 ? `$${dollars.toFixed(4)}` : `$${dollars.toFixed(6)}`;
}

/** Whether the catalog gives any price for `model` (a local server has none). */
export function hasPrices(model: Model<any>): boolean {
	const { input, output, cacheRead, cacheWrite } = model.cost;
	return input + output + cacheRead + cacheWrite > 0;
}

/**
 * The summary line (without a newline).
 *
 * @example
 * usageLine("anthropic/claude-haiku-4-5", model, usage, 2400) // "anthropic/claude-haiku-4-5 · 43 in · 282 out · $0.001453 · 2.4 s"
 */
export function usageLine(label: string, model: Model<any>, usage: Usage, elapsedMs: number): string {
	const parts = [label, `${usage.input} in`];
	if (usage.cacheRead > 0) parts.push(`${usage.cacheRead} cached`);
	if (usage.cacheWrite > 0) parts.push(`${usage.cacheWrite} cache write`);
	parts.push(`${usage.output} out`);
	parts.push(hasPrices(model) ? formatCost(usage.cost.total) : "no prices");
	parts.push(`${(elapsedMs / 1000).toFixed(1)} s`);
	return parts.join(" · ");
}
