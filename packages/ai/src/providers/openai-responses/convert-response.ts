/** Wire to unified: a whole Responses `response` object (a background reply) into a builder. The other direction is convert-messages.ts. */
import type { AssistantMessageBuilder } from "../../assistant-message-builder.js";
import type { Api, Model } from "../../types.js";
import { ResponsesStreamState } from "./responses-stream-state.js";
import type { ResponsesOutputItem, ResponsesResponse } from "./wire-types.js";

/** A finished Responses object, as `GET /v1/responses/{id}` returns it (the fields read here). */
export interface ResponsesResponseObject extends ResponsesResponse {
	output?: ResponsesOutputItem[] | null;
}

/** True for the statuses of a response that will not change any more. */
export function isFinishedStatus(status: string | undefined): boolean {
	return status !== "queued" && status !== "in_progress";
}

/**
 * Finishes `builder` with a finished response object (`completed`, `incomplete`, `failed`,
 * `cancelled`), giving exactly the message its stream would have given: the object is replayed
 * through the same {@link ResponsesStreamState}, as the `output_item.done` events of its output
 * items and its terminal event, so that block order, signatures (item ids, `phase`, whole
 * reasoning items), tool-call ids, stop reason and usage cannot differ from the streamed reply.
 * A `cancelled` response ends as an `error` saying so.
 *
 * @example
 * convertResponseObject(builder, model, await requestJson({ url: `${base}/responses/${id}`, method: "GET", headers }));
 */
export function convertResponseObject(builder: AssistantMessageBuilder, model: Model<Api>, response: ResponsesResponseObject): void {
	const state = new ResponsesStreamState(builder, model);
	state.handle({ type: "response.created", response });
	const output = Array.isArray(response.output) ? response.output : [];
	output.forEach((item, index) => {
		if (item && typeof item === "object" && typeof item.type === "string") state.handle({ type: "response.output_item.done", output_index: index, item });
	});
	switch (response.status) {
		case "completed":
			state.handle({ type: "response.completed", response });
			return;
		case "incomplete":
			state.handle({ type: "response.incomplete", response });
			return;
		case "failed":
			state.handle({ type: "response.failed", response });
			return;
		case "cancelled":
			builder.finish("error", { rawStopReason: "cancelled", errorMessage: "The background response was cancelled before it finished." });
			return;
		default:
			builder.finish("error", {
				rawStopReason: response.status ?? undefined,
				errorMessage: `The response has status ${JSON.stringify(response.status ?? null)}, which is not a final one.`,
			});
	}
}
