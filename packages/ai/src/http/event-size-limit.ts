/**
 * The bound on one server-sent event: a stream with one huge event, or bytes that never end a
 * line, would otherwise grow the parser's buffer until the process runs out of memory (with no
 * terminal event), or until V8's "Invalid string length".
 */
import type { ParseError } from "eventsource-parser";
import { ApiCallError } from "./api-call-error.js";

/**
 * The default of `maxEventBytes`: 64 MiB. Real events are far smaller: a token delta is a few
 * dozen bytes, a whole `response.completed` or an inline image a few megabytes.
 */
export const DEFAULT_MAX_EVENT_BYTES = 64 * 1024 * 1024;

/**
 * The parser options that bound an event to `maxEventBytes`, and the error once one passed it.
 * eventsource-parser counts characters of the decoded text: an event of at most `maxEventBytes`
 * bytes always passes (a character takes at least one byte), and memory stays bounded.
 */
export function eventSizeLimit(maxEventBytes: number, url: string): { maxBufferSize: number; onError: (error: ParseError) => void; exceeded: () => ApiCallError | undefined } {
	let exceeded: ApiCallError | undefined;
	return {
		maxBufferSize: maxEventBytes,
		onError: (error) => {
			if (error.type !== "max-buffer-size-exceeded") return;
			exceeded = new ApiCallError(`The event stream sent an event larger than maxEventBytes (${maxEventBytes} bytes), or a line that never ended; the reply was not read further.`, { url, isRetryable: false });
		},
		exceeded: () => exceeded,
	};
}
