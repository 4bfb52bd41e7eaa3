import { afterEach, describe, expect, it } from "vitest";
import { complete, stream } from "../src/stream.js";
import {
	fauxAssistantMessage,
	fauxText,
	fauxThinking,
	fauxToolCall,
	registerFauxProvider,
	type FauxProviderRegistration,
} from "../src/providers/faux.js";
import type { AssistantMessageEvent, Context } from "../src/types.js";

const context: Context = {
	systemPrompt: "You are terse.",
	messages: [{ role: "user", content: "帮我算 3 + 4", timestamp: 1 }],
};

let faux: FauxProviderRegistration | undefined;
afterEach(() => faux?.unregister());

async function collect(events: AsyncIterable<AssistantMessageEvent>) {
	const all: AssistantMessageEvent[] = [];
	for await (const event of events) all.push(event);
	return all;
}

describe("faux provider", () => {
	it("streams queued replies block by block in deltas, like a real provider", async () => {
		faux = registerFauxProvider({ tokenSize: { min: 2, max: 3 } });
		faux.setResponses([
			fauxAssistantMessage([fauxThinking("add them"), fauxText("3 + 4 = 7")]),
		]);
		const s = stream(faux.getModel(), context);
		const events = await collect(s);
		const message = await s.result();
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "add them" },
			{ type: "text", text: "3 + 4 = 7" },
		]);
		expect(message.stopReason).toBe("stop");
		expect(message.api).toBe("faux");
		const textDeltas = events.filter((e) => e.type === "text_delta");
		expect(textDeltas.length).toBeGreaterThanOrEqual(3);
		for (const e of textDeltas) expect(e.type === "text_delta" && e.delta.length <= 3).toBe(true);
		expect(events[0]?.type).toBe("start");
		expect(events.at(-1)?.type).toBe("done");
	});

	it("streams tool calls with their arguments and stops with toolUse", async () => {
		faux = registerFauxProvider();
		faux.setResponses([fauxAssistantMessage([fauxToolCall("calculator", { a: 3, b: 4 }, { id: "tc1" })])]);
		const message = await complete(faux.getModel(), context);
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([{ type: "toolCall", id: "tc1", name: "calculator", arguments: { a: 3, b: 4 } }]);
	});

	it("calls factory steps with the context, options, state and model", async () => {
		faux = registerFauxProvider();
		faux.setResponses([(ctx, _options, state, model) => fauxAssistantMessage(`${ctx.messages.length} ${state.callCount} ${model.id}`)]);
		const message = await complete(faux.getModel(), context);
		expect(message.content).toEqual([{ type: "text", text: "1 1 faux-1" }]);
		expect(faux.state.callCount).toBe(1);
		expect(faux.getPendingResponseCount()).toBe(0);
	});

	it("ends with an error naming the call when the queue is empty", async () => {
		faux = registerFauxProvider();
		const message = await complete(faux.getModel(), context);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/no response queued for call 1/);
	});

	it("estimates usage from text length", async () => {
		faux = registerFauxProvider();
		faux.setResponses([fauxAssistantMessage("x".repeat(40))]);
		const message = await complete(faux.getModel(), context);
		expect(message.usage.output).toBe(10);
		expect(message.usage.input).toBe(Math.ceil(("You are terse.".length + "帮我算 3 + 4".length) / 4));
		expect(message.usage.totalTokens).toBe(message.usage.input + message.usage.output);
	});

	it("replays error replies as error messages", async () => {
		faux = registerFauxProvider();
		faux.setResponses([fauxAssistantMessage("partial", { stopReason: "error", errorMessage: "scripted failure" })]);
		const message = await complete(faux.getModel(), context);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("scripted failure");
		expect(message.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("honours the signal mid-stream, keeping what was streamed", async () => {
		faux = registerFauxProvider({ tokensPerSecond: 200, tokenSize: { min: 4, max: 4 } });
		faux.setResponses([fauxAssistantMessage("a".repeat(400))]);
		const controller = new AbortController();
		const s = stream(faux.getModel(), context, { signal: controller.signal });
		let deltas = 0;
		for await (const event of s) {
			if (event.type === "text_delta" && ++deltas === 3) controller.abort();
		}
		const message = await s.result();
		expect(message.stopReason).toBe("aborted");
		const text = message.content[0];
		expect(text?.type === "text" && text.text).toBe("a".repeat(12));
	});

	it("registers several models and unregisters cleanly", async () => {
		faux = registerFauxProvider({ api: "faux-b", provider: "acme", models: [{ id: "small" }, { id: "large", reasoning: true }] });
		expect(faux.models.map((m) => m.id)).toEqual(["small", "large"]);
		expect(faux.getModel("large")?.reasoning).toBe(true);
		expect(faux.getModel("missing")).toBeUndefined();
		const model = faux.getModel();
		faux.unregister();
		const message = await complete(model, context);
		expect(message.errorMessage).toMatch(/No API provider registered for api "faux-b"/);
	});
});
