import { type AssistantMessage, type DeferredHandle, getModel, type Model } from "@pi/ai";
import type { AgentMessage } from "../types.js";

/**
 * The deferred placeholder a transcript ends with, when there is one to redeem: an assistant
 * message carrying a `deferred` handle whose stop reason is `deferred`, or `aborted` (a
 * redemption that was aborted keeps its handle, so that it can be redeemed again).
 */
export function deferredPlaceholder(messages: readonly AgentMessage[]): AssistantMessage | undefined {
	const last = messages[messages.length - 1];
	return isRedeemable(last) ? (last as AssistantMessage) : undefined;
}

/** True for an assistant message that a continued run redeems (see {@link deferredPlaceholder}). */
export function isRedeemable(message: AgentMessage | undefined): boolean {
	if (!message || (message as { role?: unknown }).role !== "assistant") return false;
	const assistant = message as AssistantMessage;
	const handle = assistant.deferred;
	return (assistant.stopReason === "deferred" || assistant.stopReason === "aborted") && typeof handle === "object" && handle !== null && typeof handle.id === "string";
}

/**
 * The model to redeem `handle` with: the agent's model when it is the handle's (same api and
 * provider; its id from the handle), else the catalog's entry for the handle's provider and
 * model. Throws, naming the model, when neither fits.
 */
export function modelForHandle(current: Model, handle: DeferredHandle): Model {
	if (current.api === handle.api && current.provider === handle.provider) {
		return current.id === handle.modelId ? current : { ...current, id: handle.modelId };
	}
	const known = getModel(handle.provider as never, handle.modelId as never) as Model | undefined;
	if (known && known.api === handle.api) return known;
	throw new Error(
		`cannot redeem the deferred reply: its model ${handle.provider}/${handle.modelId} (${handle.api}) is neither the agent's model nor in the catalog; set state.model to it`,
	);
}
