/**
 * An emulated Anthropic Message Batches service on the replay server, for the agent's deferred
 * tests: the first model call of an agent is sent as a batch (`deferred: true`), the batch ends
 * with the recorded `tool-use-single` reply (a `get_book_info` call), and the model call after
 * the tool streams the recorded `text-basic` reply.
 */
import { type Model, type SimpleStreamOptions, streamSimple } from "@pi/ai";
import { jsonResponse, loadFixture, type ReplayServer, splitSseEvents, sseResponse, textResponse } from "@pi/ai/testing";
import { Type } from "typebox";
import type { AgentTool, StreamFn } from "../../src/index.js";

export const KEY = "sk-test-agent-deferred-0123456789";
export const BATCH_ID = "msgbatch_agent";

export function anthropicModel(server: Pick<ReplayServer, "url">): Model<"anthropic-messages"> {
	return {
		id: "claude-sonnet-4-20250514",
		name: "Claude (test)",
		api: "anthropic-messages",
		provider: "anthropic",
		baseUrl: server.url,
		reasoning: false,
		input: ["text"],
		cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		contextWindow: 200_000,
		maxTokens: 8_192,
	};
}

/** A stream function whose first call goes out as a batch; later calls stream as usual. */
export function deferFirstCall(): StreamFn {
	let calls = 0;
	return (model, context, options?: SimpleStreamOptions) => streamSimple(model, context, { ...options, deferred: calls++ === 0 });
}

/** `get_book_info(isbn)`: counts its calls. */
export function bookTool(): AgentTool<any> & { calls: string[] } {
	const tool = {
		name: "get_book_info",
		label: "Book info",
		description: "Looks a book up by ISBN.",
		parameters: Type.Object({ isbn: Type.String() }),
		calls: [] as string[],
		execute: async (_id: string, params: { isbn: string }) => {
			tool.calls.push(params.isbn);
			return { content: [{ type: "text" as const, text: `The book ${params.isbn} is The Name of the Wind.` }], details: {} };
		},
	};
	return tool;
}

/** The whole `message` of the recorded `tool-use-single` stream, as a batch row carries it. */
export function toolUseMessage(): Record<string, unknown> {
	const payloads = splitSseEvents(loadFixture("anthropic-messages", "tool-use-single")).map((event) => event.json as Record<string, any>);
	const start = payloads.find((payload) => payload?.type === "message_start")?.message;
	const block = structuredClone(payloads.find((payload) => payload?.type === "content_block_start")?.content_block);
	block.input = JSON.parse(
		payloads
			.filter((payload) => payload?.type === "content_block_delta")
			.map((payload) => payload.delta.partial_json)
			.join(""),
	);
	const delta = payloads.find((payload) => payload?.type === "message_delta") as Record<string, any>;
	return { ...start, content: [block], stop_reason: delta.delta.stop_reason, usage: { ...start.usage, ...delta.usage } };
}

/** Scripts submission; returns a function that scripts the batch's end (and the turn after it). */
export function emulateBatches(server: ReplayServer) {
	let customId: string | undefined;
	const submit = server.route("POST", "/v1/messages/batches", (request) => {
		customId = (request.json as { requests: { custom_id: string }[] }).requests[0]?.custom_id;
		return jsonResponse(200, { id: BATCH_ID, type: "message_batch", processing_status: "in_progress", created_at: new Date().toISOString() });
	});
	const running = jsonResponse(200, { id: BATCH_ID, processing_status: "in_progress", results_url: null });
	const status = server.route("GET", "/v1/messages/batches/{id}", running);
	const cancel = server.route("POST", "/v1/messages/batches/{id}/cancel", jsonResponse(200, { id: BATCH_ID }));
	return {
		submit,
		status,
		cancel,
		/** The batch ends with the tool-use reply; the next model call streams a text reply. */
		end(id = customId) {
			status.remove();
			server.route("GET", "/v1/messages/batches/{id}", jsonResponse(200, { id: BATCH_ID, processing_status: "ended", results_url: `${server.url}/v1/messages/batches/${BATCH_ID}/results` }));
			server.route("GET", "/v1/messages/batches/{id}/results", textResponse(200, `${JSON.stringify({ custom_id: id, result: { type: "succeeded", message: toolUseMessage() } })}\n`));
			return server.route("POST", "/v1/messages", sseResponse(loadFixture("anthropic-messages", "text-basic")));
		},
	};
}
