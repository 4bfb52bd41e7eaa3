import { streamSimple } from "@pi/ai";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { samplingRequest, samplingResult } from "./sampling-messages.js";
import type { McpSamplingOptions } from "./types.js";

/**
 * Answers the server's `sampling/createMessage` requests on `client` with the app's model: the
 * request mapped by {@link samplingRequest}, streamed by `streamFn` (default `streamSimple`)
 * with the request's `maxTokens` and `temperature`, the reply mapped by {@link samplingResult}.
 * A server's cancellation aborts the model call. A failed reply becomes a JSON-RPC error for
 * the server, never a crash here.
 */
export async function answerSampling(client: Client, sampling: McpSamplingOptions): Promise<void> {
	const { CreateMessageRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
	const streamFn = sampling.streamFn ?? streamSimple;
	client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
		const { context, maxTokens, temperature } = samplingRequest(request.params, sampling.model.id);
		const options = temperature === undefined ? { maxTokens, signal: extra.signal } : { maxTokens, temperature, signal: extra.signal };
		const reply = await (await streamFn(sampling.model, context, options)).result();
		return samplingResult(reply);
	});
}
