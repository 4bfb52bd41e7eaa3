import { describe, expect, it } from "vitest";
import { assertEventProtocol, EventProtocolError, type EventProtocolRule } from "../../src/testing/index.js";
import type { PartialState } from "../../src/testing/index.js";
import type { AssistantMessageEvent } from "../../src/types.js";
import { finalOf, makeMessage, validAbortedSequence, validToolUseSequence } from "./protocol-sequences.js";

function expectViolation(run: () => unknown, rule: EventProtocolRule, eventIndex: number): void {
	let caught: unknown;
	try {
		run();
	} catch (error) {
		caught = error;
	}
	expect(caught).toBeInstanceOf(EventProtocolError);
	const error = caught as EventProtocolError;
	expect({ rule: error.rule, eventIndex: error.eventIndex }).toEqual({ rule, eventIndex });
	expect(error.message).toContain(`"${rule}"`);
	expect(error.message).toContain(`event #${eventIndex}`);
}

/** Applies `mutate` to a fresh valid tool-use sequence and expects `rule` broken at `eventIndex`. */
function expectBroken(rule: EventProtocolRule, eventIndex: number, mutate: (events: AssistantMessageEvent[]) => AssistantMessageEvent[] | void): void {
	const events = validToolUseSequence();
	const mutated = mutate(events) ?? events;
	expectViolation(() => assertEventProtocol(mutated), rule, eventIndex);
}

function at<T extends AssistantMessageEvent["type"]>(events: AssistantMessageEvent[], index: number, type: T): Extract<AssistantMessageEvent, { type: T }> {
	const event = events[index];
	if (event?.type !== type) throw new Error(`fixture drift: event #${index} is ${event?.type}, not ${type}`);
	return event as Extract<AssistantMessageEvent, { type: T }>;
}

/** The snapshots a well-behaved producer of `events` would have: pending, with each block in place. */
function honestStates(events: AssistantMessageEvent[]): (PartialState | undefined)[] {
	return events.map((event) => {
		if (event.type === "done" || event.type === "error") return undefined;
		const blockType = "contentIndex" in event ? finalOf(events).content[event.contentIndex]?.type : undefined;
		return { stopReason: "pending", blockType };
	});
}

describe("assertEventProtocol accepts valid sequences", () => {
	it("accepts interleaved thinking, text and tool-call blocks and summarises them", () => {
		const events = validToolUseSequence();
		const summary = assertEventProtocol(events);
		expect(summary.message).toBe(finalOf(events));
		expect(summary.counts).toMatchObject({ start: 1, thinking_delta: 2, text_delta: 2, toolcall_delta: 2, toolcall_end: 1, done: 1, error: 0 });
	});

	it("accepts an aborted stream whose tool call was cut mid-JSON", () => {
		expect(assertEventProtocol(validAbortedSequence()).message.stopReason).toBe("aborted");
	});

	it("accepts a request that failed before any content: start, then error", () => {
		const final = makeMessage([], "error", { errorMessage: "HTTP 401: invalid x-api-key" });
		expect(assertEventProtocol([{ type: "start", partial: final }, { type: "error", reason: "error", error: final }]).counts.error).toBe(1);
	});

	it("treats a tool call with no deltas as arguments {}", () => {
		const call = { type: "toolCall" as const, id: "c", name: "now", arguments: {} };
		const final = makeMessage([call], "toolUse");
		const events: AssistantMessageEvent[] = [
			{ type: "start", partial: final },
			{ type: "toolcall_start", contentIndex: 0, partial: final },
			{ type: "toolcall_end", contentIndex: 0, toolCall: call, partial: final },
			{ type: "done", reason: "toolUse", message: final },
		];
		expect(assertEventProtocol(events).counts.toolcall_start).toBe(1);
	});

	it("accepts a deferred reply that carries its handle", () => {
		const final = makeMessage([], "deferred", { deferred: { provider: "openai", api: "openai-responses", modelId: "m", id: "resp_1" } });
		expect(assertEventProtocol([{ type: "start", partial: final }, { type: "done", reason: "deferred", message: final }]).message.deferred?.id).toBe("resp_1");
	});

	it("checks result() and partial snapshots when given a recording", () => {
		const events = validToolUseSequence();
		const partialStates = honestStates(events);
		expect(assertEventProtocol({ events, message: structuredClone(finalOf(events)), partialStates }).counts.done).toBe(1);
	});
});

describe("assertEventProtocol rejects each broken rule, naming it and the event", () => {
	it("events-present: an empty list", () => {
		expectViolation(() => assertEventProtocol([]), "events-present", 0);
	});

	it("known-type: an event of an unknown type", () => {
		expectBroken("known-type", 2, (events) => {
			events.splice(2, 0, { type: "text_chunk", contentIndex: 0 } as unknown as AssistantMessageEvent);
		});
	});

	it("start-first: the sequence does not open with start", () => {
		expectBroken("start-first", 0, (events) => events.slice(1));
	});

	it("single-start: a second start", () => {
		expectBroken("single-start", 3, (events) => {
			events.splice(3, 0, { type: "start", partial: finalOf(events) });
		});
	});

	it("block-index: a block starts at an index that is not the next content position", () => {
		expectBroken("block-index", 3, (events) => {
			at(events, 3, "text_start").contentIndex = 2;
		});
	});

	it("block-started: a delta for a block that never started", () => {
		expectBroken("block-started", 4, (events) => {
			at(events, 4, "text_delta").contentIndex = 5;
		});
	});

	it("block-type: a thinking delta sent to a text block", () => {
		expectBroken("block-type", 5, (events) => {
			at(events, 5, "thinking_delta").contentIndex = 1;
		});
	});

	it("block-type: the final block's type differs from its events' family", () => {
		expectBroken("block-type", 13, (events) => {
			finalOf(events).content[0] = { type: "text", text: "hmm" };
		});
	});

	it("block-after-end: a delta after the block's end", () => {
		expectBroken("block-after-end", 7, (events) => {
			events.splice(7, 0, { type: "thinking_delta", contentIndex: 0, delta: "!", partial: finalOf(events) });
		});
	});

	it("blocks-closed: the terminal event arrives with a block still open", () => {
		expectBroken("blocks-closed", 12, (events) => {
			events.splice(11, 1); // drop text_end
		});
	});

	it("end-content: text_end content differs from the deltas", () => {
		expectBroken("end-content", 11, (events) => {
			at(events, 11, "text_end").content = "Hello!";
		});
	});

	it("end-content: thinking_end content differs from the deltas", () => {
		expectBroken("end-content", 6, (events) => {
			at(events, 6, "thinking_end").content = "hm";
		});
	});

	it("toolcall-arguments: arguments differ from the parsed deltas", () => {
		expectBroken("toolcall-arguments", 12, (events) => {
			at(events, 12, "toolcall_end").toolCall = { type: "toolCall", id: "call_1", name: "lookup", arguments: { city: "Paris" } };
		});
	});

	it("toolcall-arguments: deltas that are not JSON in a done stream (a lost fragment)", () => {
		expectBroken("toolcall-arguments", 11, (events) => {
			events.splice(10, 1);
		});
	});

	it("toolcall-arguments: arguments that are not an object", () => {
		expectBroken("toolcall-arguments", 12, (events) => {
			const end = at(events, 12, "toolcall_end");
			end.toolCall = { ...end.toolCall, arguments: [1, 2] as unknown as Record<string, unknown> };
		});
	});

	it("toolcall-arguments: allowInvalidToolArguments accepts invalid JSON with best-effort arguments", () => {
		const events = validToolUseSequence();
		at(events, 10, "toolcall_delta").delta = 'is", "days": [1, 2]'; // the model never closed the object
		expectViolation(() => assertEventProtocol(events), "toolcall-arguments", 12);
		expect(assertEventProtocol(events, { allowInvalidToolArguments: true }).counts.toolcall_end).toBe(1);
	});

	it("terminal-present: no done or error event", () => {
		expectBroken("terminal-present", 12, (events) => events.slice(0, -1));
	});

	it("terminal-last: an event after the terminal event", () => {
		expectBroken("terminal-last", 14, (events) => {
			events.push({ type: "text_delta", contentIndex: 1, delta: "late", partial: finalOf(events) });
		});
	});

	it("terminal-last: a second terminal event", () => {
		expectBroken("terminal-last", 14, (events) => {
			events.push({ type: "error", reason: "error", error: { ...finalOf(events), stopReason: "error", errorMessage: "x" } });
		});
	});

	it("terminal-reason: done with an error reason", () => {
		expectBroken("terminal-reason", 13, (events) => {
			(events[13] as { reason: string }).reason = "error";
		});
	});

	it("terminal-reason: error with a done reason", () => {
		const events = validAbortedSequence();
		(events[7] as { reason: string }).reason = "stop";
		expectViolation(() => assertEventProtocol(events), "terminal-reason", 7);
	});

	it("stop-reason: the final message's stopReason differs from the terminal reason", () => {
		expectBroken("stop-reason", 13, (events) => {
			finalOf(events).stopReason = "stop";
		});
	});

	it("stop-reason: the final message is still pending", () => {
		expectBroken("stop-reason", 13, (events) => {
			finalOf(events).stopReason = "pending";
		});
	});

	it("error-message: an aborted message without errorMessage", () => {
		const events = validAbortedSequence();
		delete finalOf(events).errorMessage;
		expectViolation(() => assertEventProtocol(events), "error-message", 7);
	});

	it("deferred-handle: a deferred message without its handle", () => {
		const final = makeMessage([], "deferred");
		expectViolation(() => assertEventProtocol([{ type: "start", partial: final }, { type: "done", reason: "deferred", message: final }]), "deferred-handle", 1);
	});

	it("final-block-count: the final message lost a block", () => {
		expectBroken("final-block-count", 13, (events) => {
			finalOf(events).content.pop();
		});
	});

	it("final-block-content: the final text differs from what was streamed", () => {
		expectBroken("final-block-content", 13, (events) => {
			finalOf(events).content[1] = { type: "text", text: "Hello world" };
		});
	});

	it("final-block-content: the final tool call differs from toolcall_end's", () => {
		expectBroken("final-block-content", 13, (events) => {
			finalOf(events).content[2] = { type: "toolCall", id: "call_2", name: "lookup", arguments: { city: "Paris", days: [1, 2] } };
		});
	});

	it("toolcall-identity: a tool call without an id", () => {
		expectBroken("toolcall-identity", 13, (events) => {
			const call = finalOf(events).content[2] as { id: string };
			call.id = ""; // the same object as toolcall_end.toolCall
		});
	});

	it("toolcall-identity: two tool calls with one id", () => {
		const call = (id: string, city: string) => ({ type: "toolCall" as const, id, name: "weather", arguments: { city } });
		const first = call("dup", "A");
		const second = call("dup", "B");
		const final = makeMessage([first, second], "toolUse");
		const events: AssistantMessageEvent[] = [
			{ type: "start", partial: final },
			{ type: "toolcall_start", contentIndex: 0, partial: final },
			{ type: "toolcall_delta", contentIndex: 0, delta: '{"city":"A"}', partial: final },
			{ type: "toolcall_end", contentIndex: 0, toolCall: first, partial: final },
			{ type: "toolcall_start", contentIndex: 1, partial: final },
			{ type: "toolcall_delta", contentIndex: 1, delta: '{"city":"B"}', partial: final },
			{ type: "toolcall_end", contentIndex: 1, toolCall: second, partial: final },
			{ type: "done", reason: "toolUse", message: final },
		];
		expectViolation(() => assertEventProtocol(events), "toolcall-identity", 7);
	});

	it("no-scratch-fields: a partial-JSON buffer left on a final tool call", () => {
		expectBroken("no-scratch-fields", 13, (events) => {
			Object.assign(finalOf(events).content[2] as object, { partialJson: '{"city": "Paris"' });
		});
	});

	it("no-scratch-fields: an unknown key on a final text block, even when undefined", () => {
		expectBroken("no-scratch-fields", 13, (events) => {
			Object.assign(finalOf(events).content[1] as object, { index: undefined });
		});
	});

	it("pending-while-streaming: partial.stopReason was not pending at event time", () => {
		const events = validToolUseSequence();
		const partialStates = honestStates(events);
		partialStates[4] = { stopReason: "stop", blockType: "text" };
		expectViolation(() => assertEventProtocol(events, { partialStates }), "pending-while-streaming", 4);
	});

	it("partial-block: the block was not in partial.content when its start arrived", () => {
		const events = validToolUseSequence();
		const partialStates = honestStates(events);
		partialStates[8] = { stopReason: "pending", blockType: undefined };
		expectViolation(() => assertEventProtocol(events, { partialStates }), "partial-block", 8);
	});

	it("result-matches-terminal: result() settled with another message", () => {
		const events = validToolUseSequence();
		const result = { ...finalOf(events), stopReason: "stop" as const };
		expectViolation(() => assertEventProtocol(events, { result }), "result-matches-terminal", 13);
	});

	it("rejects partialStates of the wrong length as misuse", () => {
		expect(() => assertEventProtocol(validToolUseSequence(), { partialStates: [] })).toThrow(TypeError);
	});
});
