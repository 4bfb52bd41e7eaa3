/**
 * The body of a proxy's 200 answer: the model call's events in the proxy wire format, one SSE
 * `data:` line each, pulled as the client reads. Whatever the call does (ends, throws, or the
 * client leaves midway), its usage is reported exactly once.
 */
import { type AssistantMessage, type AssistantMessageEvent, type AssistantMessageEventSource, emptyUsage, type StopReason } from "@pi/ai";
import { toProxyEvent } from "./proxy-events.js";

/** What {@link proxyReplyBody} tells its server. */
export interface ProxyReplyHooks {
	/** Told the call's usage and how it ended; called once. */
	report: (usage: AssistantMessage["usage"], stopReason: StopReason) => void;
	/** The provider key, scrubbed from the message of a stream function that threw. */
	secret: string | undefined;
	/** The stream ended (its terminal event was sent). */
	onEnd: () => void;
	/** The client cancelled the body: abort the model call. */
	onCancel: (reason: unknown) => void;
}

type Terminal = Extract<AssistantMessageEvent, { type: "done" | "error" }>;

/** The proxy wire stream of `events`. */
export function proxyReplyBody(events: AssistantMessageEventSource, hooks: ProxyReplyHooks): ReadableStream<Uint8Array> {
	const iterator = events[Symbol.asyncIterator]();
	const encoder = new TextEncoder();
	const line = (event: unknown) => encoder.encode(`data: ${JSON.stringify(event)}\n\n`);
	let cancelled = false;
	// The read in progress: a cancel waits for it, so that two reads never run at once.
	let reading: Promise<"open" | "ended"> = Promise.resolve("open");
	const step = async (stream: ReadableStreamDefaultController<Uint8Array>): Promise<"open" | "ended"> => {
		try {
			const next = await iterator.next();
			if (next.done) {
				hooks.report(emptyUsage(), "error");
				if (!cancelled) stream.close();
				return "ended";
			}
			const terminal = isTerminal(next.value);
			if (terminal) reportTerminal(next.value as Terminal, hooks.report);
			if (cancelled) return terminal ? "ended" : "open";
			stream.enqueue(line(toProxyEvent(next.value)));
			if (!terminal) return "open";
			stream.close();
			return "ended";
		} catch (error) {
			// A stream function that broke its contract: still end with a proper error event.
			const message = error instanceof Error ? error.message : String(error);
			const usage = emptyUsage();
			hooks.report(usage, "error");
			if (!cancelled) {
				stream.enqueue(line({ type: "error", reason: "error", errorMessage: redact(message, hooks.secret), usage }));
				stream.close();
			}
			return "ended";
		}
	};
	return new ReadableStream<Uint8Array>({
		async pull(stream) {
			reading = step(stream);
			if ((await reading) === "ended") hooks.onEnd();
		},
		cancel(reason) {
			cancelled = true;
			hooks.onCancel(reason);
			// Count what the call spent until the abort: read it to its terminal event.
			void reading.then((state) => (state === "ended" ? undefined : drainForUsage(iterator, hooks.report)));
		},
	});
}

function isTerminal(event: AssistantMessageEvent): boolean {
	return event.type === "done" || event.type === "error";
}

function reportTerminal(event: Terminal, report: ProxyReplyHooks["report"]): void {
	if (event.type === "done") report(event.message.usage, event.reason);
	else report(event.error.usage, event.reason);
}

/** Reads an aborted call's stream to its terminal event, for its usage. Never throws. */
async function drainForUsage(iterator: AsyncIterator<AssistantMessageEvent>, report: ProxyReplyHooks["report"]): Promise<void> {
	try {
		for (;;) {
			const next = await iterator.next();
			if (next.done) break;
			if (isTerminal(next.value)) return reportTerminal(next.value as Terminal, report);
		}
	} catch {
		// A stream that throws after an abort: nothing more is known of its usage.
	}
	report(emptyUsage(), "aborted");
}

function redact(text: string, secret: string | undefined): string {
	return secret ? text.split(secret).join("[redacted]") : text;
}
