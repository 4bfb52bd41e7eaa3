import { AssistantMessageEventStream, type Model } from "@pi/ai";
import { emptyAssistantMessage } from "../loop/assistant-messages.js";
import type { StreamFn } from "../types.js";

/** The `errorMessage` of a run started by an agent that has no model. */
export const NO_MODEL_TEXT = "no model set: assign `agent.state.model` or pass `initialState.model`";

/**
 * The model an agent has until one is set. A custom `streamFn` is called with it (and decides
 * for itself what to do); the default one ends the run with {@link NO_MODEL_TEXT}, see
 * {@link explainMissingModel}.
 */
export const NO_MODEL: Model = {
	id: "no-model-set",
	name: "No model set (assign agent.state.model)",
	api: "no-model-set",
	provider: "no-model-set",
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 0,
	maxTokens: 0,
};

/**
 * Wraps the default stream function (`streamSimple`) so that a call with {@link NO_MODEL} ends at once with an error reply
 * saying how to set a model, instead of whatever the stream function makes of a model no
 * provider serves (for `streamSimple`: "No API provider registered for api …"). Any other model
 * goes to `streamFn` unchanged. The run still ends the usual way, `agent_end` included.
 */
export function explainMissingModel(streamFn: StreamFn): StreamFn {
	return (model, context, options) => {
		if (model.api !== NO_MODEL.api) return streamFn(model, context, options);
		const stream = new AssistantMessageEventStream();
		const message = emptyAssistantMessage(model, "error", NO_MODEL_TEXT);
		stream.push({ type: "start", partial: { ...message, stopReason: "stop", errorMessage: undefined } });
		stream.push({ type: "error", reason: "error", error: message });
		return stream;
	};
}
