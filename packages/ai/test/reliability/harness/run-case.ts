/**
 * Runs one provider call against the replay server and checks the guarantees every reliability
 * case shares: one terminal event, the event protocol, no API key anywhere, keys only in headers.
 */
import { expect } from "vitest";
import { assertEventProtocol, type RecordedEvents, type RecordedRequest, recordEvents, type ReplayServer } from "../../../src/testing/index.js";
import type { AssistantMessage, Context, RetryInfo, StopReason, StreamOptions } from "../../../src/types.js";
import { FAKE_KEY, type ProviderAdapter } from "./adapters.js";

export const HELLO: Context = { messages: [{ role: "user", content: "Hello", timestamp: 1 }] };

/** What one call produced. */
export interface CaseResult extends RecordedEvents {
	retries: RetryInfo[];
	requests: RecordedRequest[];
}

/** Options every reliability call gets unless a case overrides them: short waits, the fake key. */
export const FAST: StreamOptions = { apiKey: FAKE_KEY, idleTimeoutMs: 10_000, maxRetryDelayMs: 1_000 };

/** Only the fake key, for calls made without {@link runCase}. */
export const FAKE_KEY_OPTIONS = { apiKey: FAKE_KEY } as const;

/** Calls the provider against `server` and records everything. */
export async function runCase(
	adapter: ProviderAdapter,
	server: ReplayServer,
	options: StreamOptions = {},
	context: Context = HELLO,
): Promise<CaseResult> {
	const retries: RetryInfo[] = [];
	const stream = adapter.stream(adapter.model(server.url), context, {
		...FAST,
		...options,
		onRetry: (info) => {
			retries.push(info);
			options.onRetry?.(info);
		},
	});
	const recorded = await recordEvents(stream, { timeoutMs: 60_000 });
	return { ...recorded, retries, requests: server.requests.slice() };
}

/** The expectations of one case; everything not given is not checked. */
export interface Expectation {
	stopReason: StopReason;
	/** Requests the server must have received (1 + retries). */
	requests?: number;
	/** Substrings the `errorMessage` must contain (status, the provider's message, …). */
	errorIncludes?: (string | RegExp)[];
	/** The visible text the final message must hold exactly. */
	text?: string;
	/** A prefix the final text must start with (content that arrived before a fault). */
	textStartsWith?: string;
}

/**
 * Checks `result` against `expected` and against the shared guarantees. Returns the final message.
 */
export function expectCase(adapter: ProviderAdapter, result: CaseResult, expected: Expectation): AssistantMessage {
	// The event protocol, with exactly one terminal event, last.
	assertEventProtocol(result);
	const terminals = result.events.filter((event) => event.type === "done" || event.type === "error");
	expect(terminals).toHaveLength(1);
	const message = result.message;
	expect(message.stopReason, message.errorMessage).toBe(expected.stopReason);

	// No API key in the message, the events, or what onRetry was told.
	expect(JSON.stringify(result.events)).not.toContain(FAKE_KEY);
	expect(JSON.stringify(message)).not.toContain(FAKE_KEY);
	expect(JSON.stringify(result.retries)).not.toContain(FAKE_KEY);

	// Keys travel in headers, never in URLs.
	for (const request of result.requests) {
		expect(request.path).not.toContain(FAKE_KEY);
		expect(request.path).not.toMatch(/[?&]key=/);
		const [name, value] = adapter.keyHeader;
		expect(request.headers[name]).toBe(value);
	}

	if (expected.requests !== undefined) {
		expect(result.requests).toHaveLength(expected.requests);
		// onRetry reports every retry: one per request after the first.
		expect(result.retries.map((retry) => retry.attempt)).toEqual(Array.from({ length: expected.requests - 1 }, (_, i) => i + 1));
	}

	if (expected.stopReason === "error" || expected.stopReason === "aborted") {
		const text = message.errorMessage ?? "";
		expect(text.length).toBeGreaterThan(10);
		expect(text).not.toMatch(/\[object Object\]|undefined|null:/);
		for (const part of expected.errorIncludes ?? []) {
			if (typeof part === "string") expect(text).toContain(part);
			else expect(text).toMatch(part);
		}
	} else {
		expect(message.errorMessage).toBeUndefined();
	}

	const text = textOf(message);
	if (expected.text !== undefined) expect(text).toBe(expected.text);
	if (expected.textStartsWith !== undefined) expect(text.startsWith(expected.textStartsWith), `text ${JSON.stringify(text)}`).toBe(true);
	return message;
}

/** The visible text of a message. */
export function textOf(message: AssistantMessage): string {
	return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}
