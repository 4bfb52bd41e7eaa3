import type { Api, Provider, StopReason, Usage } from "@pi/ai";

/**
 * What one model call (step) of an assistant UI message was, for the transcript to be rebuilt
 * exactly: the UI format has steps (`step-start` parts) but no per-step model or usage.
 */
export interface PiStepMetadata {
	api: Api;
	provider: Provider;
	model: string;
	usage: Usage;
	stopReason: StopReason;
	timestamp: number;
	responseId?: string;
	responseModel?: string;
	rawStopReason?: string;
	errorMessage?: string;
}

/**
 * The metadata of an assistant UI message written by this package (by `toUIMessages`, and by
 * the stream's `finish` chunk unless `messageMetadata` says otherwise): the last step's model
 * and provider, the usage of all its steps (with cost), and under `pi` each step's own record.
 *
 * @example
 * ```ts
 * const { usage } = chat.messages.at(-1)!.metadata as PiMessageMetadata;
 * console.log(usage.cost.total);
 * ```
 */
export interface PiMessageMetadata {
	model: string;
	provider: Provider;
	usage: Usage;
	pi: { steps: PiStepMetadata[] };
}

/** The key under which this package keeps what the UI format lacks, in `providerMetadata` and `metadata`. */
export const PI_KEY = "pi";

/** Sums usages (tokens and cost), as a run's total. */
export function addUsage(total: Usage, usage: Usage): Usage {
	return {
		input: total.input + usage.input,
		output: total.output + usage.output,
		cacheRead: total.cacheRead + usage.cacheRead,
		cacheWrite: total.cacheWrite + usage.cacheWrite,
		totalTokens: total.totalTokens + usage.totalTokens,
		cost: {
			input: total.cost.input + usage.cost.input,
			output: total.cost.output + usage.cost.output,
			cacheRead: total.cost.cacheRead + usage.cost.cacheRead,
			cacheWrite: total.cost.cacheWrite + usage.cost.cacheWrite,
			total: total.cost.total + usage.cost.total,
		},
	};
}

/** A usage of zero tokens. */
export function zeroUsage(): Usage {
	return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}
