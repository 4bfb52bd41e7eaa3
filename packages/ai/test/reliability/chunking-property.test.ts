/**
 * Property: however a body is cut on the wire, a provider makes the same reply of it. Every
 * recorded capture of every API, cut by fast-check-chosen chunkings (sizes, seeds, how often a cut
 * splits a UTF-8 character or a CRLF pair), must give the same event sequence (types, indexes,
 * deltas) and the same final message as the capture sent in one piece.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isGeneratedToolCallId } from "../../src/providers/google-generative-ai/tool-call-id.js";
import { assertEventProtocol, listFixtures, loadFixture, type ReplayChunking, type ReplayServer, sseResponse, startReplayServer } from "../../src/testing/index.js";
import type { AssistantMessage, AssistantMessageEvent } from "../../src/types.js";
import { ADAPTERS, type ProviderAdapter } from "./harness/adapters.js";
import { runCase } from "./harness/run-case.js";
import { expectNoUnhandledRejections } from "./harness/unhandled-rejections.js";

expectNoUnhandledRejections();

interface Capture {
	adapter: ProviderAdapter;
	name: string;
	body: Buffer;
}

const captures: Capture[] = ADAPTERS.flatMap((adapter) =>
	listFixtures(adapter.api).map((fixture) => ({ adapter, name: fixture.name, body: loadFixture(adapter.api, fixture.name) })),
);

/** What must not depend on chunking: each event without its live `partial`, ids made stable. */
function shape(events: readonly AssistantMessageEvent[]): unknown[] {
	return events.map((event) => {
		switch (event.type) {
			case "start":
				return { type: event.type };
			case "done":
				return { type: event.type, reason: event.reason, message: stableMessage(event.message) };
			case "error":
				return { type: event.type, reason: event.reason, message: stableMessage(event.error) };
			case "toolcall_end":
				return { type: event.type, contentIndex: event.contentIndex, toolCall: stableBlock(event.toolCall) };
			case "text_end":
			case "thinking_end":
				return { type: event.type, contentIndex: event.contentIndex, content: event.content };
			case "text_delta":
			case "thinking_delta":
			case "toolcall_delta":
				return { type: event.type, contentIndex: event.contentIndex, delta: event.delta };
			default:
				return { type: event.type, contentIndex: event.contentIndex };
		}
	});
}

function stableMessage(message: AssistantMessage): unknown {
	return { ...message, timestamp: 0, content: message.content.map(stableBlock) };
}

/** Gemini 2.x sends calls without ids; the ids generated for them are random per run. */
function stableBlock<T extends AssistantMessage["content"][number]>(block: T): T {
	if (block.type === "toolCall" && isGeneratedToolCallId(block.id, block.name)) return { ...block, id: `${block.name}_<generated>` };
	return block;
}

let server: ReplayServer;
const references = new Map<Capture, unknown[]>();

beforeAll(async () => {
	server = await startReplayServer();
	// The reference: each capture sent in one piece.
	for (const capture of captures) {
		const whole = { minChunkBytes: capture.body.length, maxChunkBytes: capture.body.length };
		references.set(capture, shape((await replay(capture, whole)).events));
	}
}, 300_000);
afterAll(() => server.close());

async function replay(capture: Capture, chunking: ReplayChunking) {
	server.enqueue(sseResponse(capture.body, { chunking }));
	const result = await runCase(capture.adapter, server, { maxRetries: 0 });
	server.reset();
	return result;
}

async function expectSameReply(capture: Capture, chunking: ReplayChunking): Promise<void> {
	const result = await replay(capture, chunking);
	assertEventProtocol(result);
	expect(shape(result.events), `${capture.adapter.api}/${capture.name} with ${JSON.stringify(chunking)}`).toEqual(references.get(capture));
}

describe("any chunking of any capture gives the reference reply", () => {
	it(`covers ${captures.length} captures of ${ADAPTERS.length} APIs`, () => {
		expect(captures.length).toBeGreaterThanOrEqual(50);
		expect(new Set(captures.map((capture) => capture.adapter.api)).size).toBe(ADAPTERS.length);
	});

	it("every capture, cut into 1-9 byte chunks with many awkward cuts", async () => {
		for (const capture of captures) await expectSameReply(capture, { seed: 7, minChunkBytes: 1, maxChunkBytes: 9, awkwardCutRate: 0.9 });
		// Minutes on a machine shared by several test runs (tens of seconds when idle): a bound for
		// hangs only.
	}, 300_000);

	it("fast-check: random captures, chunk sizes, seeds and awkward-cut rates", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 0, max: captures.length - 1 }),
				fc.integer({ min: 1, max: 2 ** 31 - 1 }),
				fc.integer({ min: 1, max: 64 }),
				fc.integer({ min: 0, max: 600 }),
				fc.double({ min: 0, max: 1, noNaN: true }),
				async (index, seed, minChunkBytes, extra, awkwardCutRate) => {
					const capture = captures[index] as Capture;
					await expectSameReply(capture, { seed, minChunkBytes, maxChunkBytes: minChunkBytes + extra, awkwardCutRate });
				},
			),
			{ numRuns: 300 },
		);
	}, 300_000);
});
