import { afterAll, beforeAll } from "vitest";
import { streamAnthropic, streamSimpleAnthropic, type AnthropicOptions } from "../../../src/providers/anthropic-messages.js";
import { type RecordedRequest, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import type { AssistantMessage, Context, Model, SimpleStreamOptions } from "../../../src/types.js";
import { anthropicModel, textStream } from "./helpers.js";

export interface Captured {
	request: RecordedRequest;
	/** The parsed JSON body. */
	body: Record<string, unknown>;
	message: AssistantMessage;
}

/**
 * Starts one replay server for the test file and returns functions that send a request through
 * `streamAnthropic` / `streamSimpleAnthropic` and return what the server received.
 */
export function useCapture() {
	let server: ReplayServer;
	beforeAll(async () => {
		server = await startReplayServer();
	});
	afterAll(() => server.close());

	const run = async (send: (model: Model<"anthropic-messages">) => Promise<AssistantMessage>, model: Partial<Model<"anthropic-messages">>): Promise<Captured> => {
		server.reset();
		server.enqueue(sseResponse(textStream()));
		const message = await send(anthropicModel({ ...model, baseUrl: model.baseUrl ?? server.url }));
		const request = server.requests[0];
		if (!request) throw new Error(`no request reached the server: ${message.errorMessage}`);
		return { request, body: request.json as Record<string, unknown>, message };
	};

	return {
		get url() {
			return server.url;
		},
		/** Sends with the full options; `apiKey` defaults to a test key. */
		capture(context: Context, options: AnthropicOptions = {}, model: Partial<Model<"anthropic-messages">> = {}) {
			return run((m) => streamAnthropic(m, context, { apiKey: "sk-ant-api03-test", ...options }).result(), model);
		},
		/** Sends with the simple options; `apiKey` defaults to a test key. */
		captureSimple(context: Context, options: SimpleStreamOptions = {}, model: Partial<Model<"anthropic-messages">> = {}) {
			return run((m) => streamSimpleAnthropic(m, context, { apiKey: "sk-ant-api03-test", ...options }).result(), model);
		},
	};
}
