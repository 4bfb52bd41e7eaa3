import type { AssistantMessage } from "@pi/ai";
import type { Link, Span, SpanContext } from "@opentelemetry/api";

/** Deferred jobs remembered at most: an app that never redeems its replies does not grow memory. */
const LIMIT = 1000;
const spans = new Map<string, SpanContext>();

/**
 * `onEnd` of a model call: the span of a call whose reply was deferred is remembered by the job's
 * id, so that the span of the call that redeems it can link to it.
 */
export function rememberDeferral(message: AssistantMessage, span: Span): void {
	if (!message.deferred) return;
	spans.delete(message.deferred.id);
	spans.set(message.deferred.id, span.spanContext());
	if (spans.size > LIMIT) spans.delete(spans.keys().next().value as string);
}

/**
 * The links of a call that redeems deferred job `id`: to the call that deferred it, when this
 * process made that call. A reply redeemed in another process has no link; both spans carry
 * `pi.deferred.id` to correlate them by.
 */
export function deferralLinks(id: string): Link[] {
	const deferred = spans.get(id);
	if (!deferred) return [];
	spans.delete(id);
	return [{ context: deferred }];
}
