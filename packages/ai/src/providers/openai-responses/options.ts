import type { StreamOptions } from "../../types.js";
import type { ResponsesReasoningEffort, ResponsesReasoningSummary, ResponsesServiceTier, ResponsesToolChoice } from "./wire-types.js";

/**
 * Options of `streamOpenAIResponses`: the common {@link StreamOptions} plus what the Responses API
 * reads. Every field is optional; omitted fields are not sent, except `store` (default `false`).
 */
export interface OpenAIResponsesOptions extends StreamOptions {
	/**
	 * `reasoning.effort`. Sent only to models with `reasoning: true`. Default: not sent (the model's
	 * own default; `streamSimple` maps its `reasoning` level here).
	 */
	reasoningEffort?: ResponsesReasoningEffort;
	/**
	 * `reasoning.summary`: ask for readable summaries of the reasoning, streamed as thinking.
	 * Default `"auto"` whenever `reasoningEffort` is set (unless `model.compat.supportsReasoningSummary`
	 * is `false`); `null` sends no summary request.
	 */
	reasoningSummary?: ResponsesReasoningSummary | null;
	/** `tool_choice`: `auto`, `none`, `required`, or one function `{ type: "function", name }`. Default: not sent. */
	toolChoice?: ResponsesToolChoice;
	/**
	 * `store`: keep the response on the server (for `previous_response_id`, the dashboard, or
	 * background jobs). Default `false`: every request carries its whole history, reasoning
	 * included (as `encrypted_content`), so nothing needs to be stored.
	 */
	store?: boolean;
	/**
	 * `background: true`: the server runs the response as a job that outlives this connection.
	 * When the stream ends before the job finishes, the message ends with `stopReason: "deferred"`
	 * and a `deferred` handle (the response id, its status and the last sequence number) to resume
	 * it with. Default: not sent.
	 */
	background?: boolean;
	/** `service_tier`: `auto`, `default`, `flex`, `priority`, `scale`. Default: not sent. */
	/** `null` (the reference allows it) means the same as leaving it out. */
	serviceTier?: ResponsesServiceTier | null;
}
