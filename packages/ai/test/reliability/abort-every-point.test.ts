/**
 * Aborting at every point of a stream, for a capture of each API: after each event k (seen by the
 * consumer, and synchronously inside the k-th push), before the request, while `onPayload` runs,
 * while waiting for headers, during a stall and during a retry wait. Each run must end `aborted`,
 * keeping everything that streamed before the abort.
 *
 * "At once" is asserted as order and outcome, never as wall-clock time (a loaded machine delays
 * timers by hundreds of milliseconds): after `abort()` the provider pushes no new content (only
 * the ends of open blocks and the terminal event); where the server stalls, the stall never ends,
 * so the run can only have ended because of the abort; and an abort during a retry wait leaves the
 * request count at one (the retry would have succeeded).
 */
import { describe, expect, it } from "vitest";
import type { AssistantMessageEventStream } from "../../src/event-stream.js";
import { stream as streamEntry } from "../../src/stream.js";
import { assertEventProtocol, jsonResponse, loadFixture, type ReplayServer, sseResponse, startReplayServer } from "../../src/testing/index.js";
import type { AssistantMessage, AssistantMessageEvent } from "../../src/types.js";
import { ADAPTERS, type ProviderAdapter } from "./harness/adapters.js";
import { isContentPrefix, referenceRun, sameToolCall } from "./harness/reference.js";
import { FAST, HELLO } from "./harness/run-case.js";
import { afterEventWith } from "./harness/sse-bytes.js";
import { expectNoUnhandledRejections } from "./harness/unhandled-rejections.js";
import { withServer } from "./harness/with-server.js";

expectNoUnhandledRejections();

/** A capture per API with several block kinds (thinking, text, tool calls with streamed arguments). */
const CAPTURES: Record<string, string> = {
	"anthropic-messages": "tool-use-parallel",
	"openai-completions": "xai-reasoning-tool-call",
	"openai-responses": "text-then-function-call-phase",
	"google-generative-ai": "thought-summary-function-call-signature",
};

interface AbortRun {
	events: AssistantMessageEvent[];
	message: AssistantMessage;
	/** Deep copy of the partial message's content when the abort came. */
	contentAtAbort: AssistantMessage["content"];
	/** The stream had already ended when the abort came. */
	wasDone: boolean;
	/**
	 * Events the provider pushed after `abort()` besides closing open blocks (`*_end`, which the
	 * protocol requires before the terminal event) and the terminal event: must be none.
	 */
	pushedAfterAbort: AssistantMessageEvent["type"][];
}

/**
 * Streams `body`, aborting after the consumer received event number `k` (1-based), or, with
 * `inPush`, synchronously inside the producer's k-th `push`.
 */
async function abortAfter(adapter: ProviderAdapter, server: ReplayServer, body: Uint8Array, k: number, inPush: boolean): Promise<AbortRun> {
	server.enqueue(sseResponse(body, { chunking: { maxChunkBytes: 48 } }));
	const controller = new AbortController();
	const stream = adapter.stream(adapter.model(server.url), HELLO, { ...FAST, signal: controller.signal }) as AssistantMessageEventStream;
	let aborted = false;
	let contentAtAbort: AssistantMessage["content"] = [];
	let wasDone = false;
	const pushedAfterAbort: AssistantMessageEvent["type"][] = [];
	const abort = (partial: AssistantMessage | undefined) => {
		if (aborted) return;
		wasDone = stream.isDone;
		contentAtAbort = structuredClone(partial?.content ?? []);
		aborted = true;
		controller.abort();
	};
	let pushed = 1; // `start` was pushed when the stream was created
	const push = stream.push.bind(stream);
	stream.push = (event) => {
		if (aborted && event.type !== "done" && event.type !== "error" && !event.type.endsWith("_end")) pushedAfterAbort.push(event.type);
		push(event);
		pushed++;
		if (inPush && pushed === k && "partial" in event) abort(event.partial);
	};
	if (inPush && k === 1) abort(undefined);
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) {
		events.push(event);
		if (!inPush && event.type !== "done" && event.type !== "error" && events.length === k) abort(event.partial);
	}
	return { events, message: await stream.result(), contentAtAbort, wasDone, pushedAfterAbort };
}

/** `later` holds everything `earlier` held: same blocks, texts extended, tool calls kept. */
function keeps(later: AssistantMessage["content"], earlier: AssistantMessage["content"]): boolean {
	if (later.length < earlier.length) return false;
	return earlier.every((block, index) => {
		const other = later[index];
		if (!other || other.type !== block.type) return false;
		if (block.type === "text" && other.type === "text") return other.text.startsWith(block.text);
		if (block.type === "thinking" && other.type === "thinking") return other.thinking.startsWith(block.thinking);
		if (block.type === "toolCall" && other.type === "toolCall") return sameToolCall(other, block);
		return false;
	});
}

describe.each(ADAPTERS)("$api: abort at every point", (adapter) => {
	const capture = CAPTURES[adapter.api] as string;
	const body = loadFixture(adapter.api, capture);

	for (const inPush of [false, true]) {
		it(`${capture}: abort after each event k ${inPush ? "(synchronously inside the k-th push)" : "(as the consumer receives it)"}`, async () => {
			const reference = await referenceRun(adapter, body, capture);
			const last = reference.events.length - 1; // the terminal event
			const server = await startReplayServer();
			let aborted = 0;
			try {
				for (let k = 1; k <= last; k++) {
					const run = await abortAfter(adapter, server, body, k, inPush);
					const label = `k=${k} of ${last}`;
					assertEventProtocol({ events: run.events, message: run.message });
					expect(run.events.filter((event) => event.type === "done" || event.type === "error"), label).toHaveLength(1);
					if (run.wasDone) {
						// The reply had already ended: nothing to abort, nothing lost.
						expect(run.message.stopReason, label).toBe(reference.message.stopReason);
						expect(isContentPrefix(reference.message.content, run.message.content), label).toBe(true);
						continue;
					}
					aborted++;
					expect(run.message.stopReason, label).toBe("aborted");
					expect(run.message.errorMessage, label).toMatch(/aborted/i);
					expect(run.pushedAfterAbort, `${label}: no new content after abort()`).toEqual([]);
					// Everything received before the abort is kept, and nothing that was not sent appears.
					expect(keeps(run.message.content, run.contentAtAbort), `${label}: ${JSON.stringify(run.message.content)}`).toBe(true);
					expect(isContentPrefix(run.message.content, reference.message.content), label).toBe(true);
					if (inPush) {
						// An abort inside a push ends the message right there: exactly what had streamed.
						expect(run.message.content.map(visible), label).toEqual(run.contentAtAbort.map(visible));
					}
				}
			} finally {
				await server.close();
			}
			// Most points of the stream really were mid-stream.
			expect(aborted).toBeGreaterThanOrEqual(Math.floor(last / 2));
		});
	}

	it("abort before the request: aborted at once, nothing sent", async () => {
		await withServer(async (server) => {
			server.enqueue(sseResponse(body));
			const message = await adapter.stream(adapter.model(server.url), HELLO, { ...FAST, signal: AbortSignal.abort() }).result();
			expect(message).toMatchObject({ stopReason: "aborted", content: [] });
			await new Promise((resolve) => setTimeout(resolve, 20));
			expect(server.requests).toHaveLength(0);
		});
	});

	it("abort while onPayload runs: aborted, and the request is never sent", async () => {
		await withServer(async (server) => {
			server.enqueue(sseResponse(body));
			const controller = new AbortController();
			const message = await adapter
				.stream(adapter.model(server.url), HELLO, {
					...FAST,
					signal: controller.signal,
					onPayload: async () => {
						controller.abort();
						return undefined;
					},
				})
				.result();
			expect(message.stopReason).toBe("aborted");
			await new Promise((resolve) => setTimeout(resolve, 30));
			expect(server.requests).toHaveLength(0);
		});
	});

	it("abort while waiting for the response headers: aborted promptly", async () => {
		await withServer(async (server) => {
			server.enqueue({ stallBeforeHeaders: true });
			const controller = new AbortController();
			const stream = adapter.stream(adapter.model(server.url), HELLO, { ...FAST, signal: controller.signal });
			while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
			controller.abort();
			// The server never sends the headers: only the abort can end this.
			const message = await stream.result();
			expect(message.stopReason).toBe("aborted");
			expect(server.requests).toHaveLength(1);
		});
	});

	it("abort during a mid-stream stall: aborted promptly, keeping the text", async () => {
		await withServer(async (server) => {
			server.enqueue(sseResponse(adapter.fixture, { stallAfterBytes: afterEventWith(adapter.fixture, adapter.firstTextMarker) }));
			const controller = new AbortController();
			const stream = adapter.stream(adapter.model(server.url), HELLO, { ...FAST, signal: controller.signal });
			let abortScheduled = false;
			for await (const event of stream) {
				if (event.type === "text_delta" && !abortScheduled) {
					abortScheduled = true;
					setTimeout(() => controller.abort(new Error("user pressed Esc")), 30);
				}
			}
			// The server stalls for ever: only the abort can have ended the stream.
			const message = await stream.result();
			expect(message.stopReason).toBe("aborted");
			expect(message.errorMessage).toContain("user pressed Esc");
			expect(message.content[0]).toMatchObject({ type: "text" });
			expect((message.content[0] as { text: string }).text.startsWith(adapter.firstText)).toBe(true);
		});
	});

	it("through stream() (the lazily loaded entry point): abort mid-stream is as prompt", async () => {
		await withServer(async (server) => {
			server.enqueue(sseResponse(adapter.fixture, { stallAfterBytes: afterEventWith(adapter.fixture, adapter.firstTextMarker) }));
			const controller = new AbortController();
			const events = streamEntry(adapter.model(server.url), HELLO, { ...FAST, signal: controller.signal });
			let aborted = false;
			const afterAbort: string[] = [];
			for await (const event of events) {
				if (aborted) afterAbort.push(event.type);
				if (event.type === "text_delta" && !aborted) {
					aborted = true;
					controller.abort();
				}
			}
			// The server stalls for ever after the first text: the abort ended the stream, and the
			// terminal event is all that came after it.
			expect(afterAbort.at(-1)).toBe("error");
			const message = await events.result();
			expect(message.stopReason).toBe("aborted");
			expect((message.content[0] as { text?: string }).text?.startsWith(adapter.firstText)).toBe(true);
		});
	});

	it("abort during a retry wait: aborted promptly, no second request", async () => {
		await withServer(async (server) => {
			server.enqueue(jsonResponse(429, { error: { message: "slow down" } }, { "retry-after": "10" }), sseResponse(body));
			const controller = new AbortController();
			let abortedInWait = false;
			const stream = adapter.stream(adapter.model(server.url), HELLO, {
				...FAST,
				maxRetryDelayMs: 60_000,
				signal: controller.signal,
				onRetry: () => {
					setTimeout(() => {
						abortedInWait = true;
						controller.abort();
					}, 20);
				},
			});
			// Without the abort the client would wait 10 s, retry and succeed (stopReason "stop").
			const message = await stream.result();
			expect(abortedInWait).toBe(true);
			expect(message.stopReason).toBe("aborted");
			await new Promise((resolve) => setTimeout(resolve, 20));
			expect(server.requests).toHaveLength(1);
		});
	});
});

/** A block without its tool-call arguments, which a finishing parser may complete. */
function visible(block: AssistantMessage["content"][number]): unknown {
	if (block.type === "toolCall") return { type: block.type, id: block.id, name: block.name };
	return block;
}
