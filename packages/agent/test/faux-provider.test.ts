import { fauxAssistantMessage, fauxText, fauxThinking, fauxToolCall, registerFauxProvider } from "@pi/ai";
import { afterEach, describe, expect, test } from "vitest";
import { Agent, INTERRUPTED_TEXT } from "../src/index.js";
import { record, textOf, user } from "./helpers/collect.js";
import { assertRunInvariants } from "./helpers/event-invariants.js";
import { addTool } from "./helpers/tools.js";

// These tests use the default streamFn (streamSimple from @pi/ai) over the registered faux provider.
let faux: ReturnType<typeof registerFauxProvider> | undefined;
afterEach(() => faux?.unregister());

describe("Agent over streamSimple and the faux provider", () => {
	test("tool call → result → answer, with thinking, streamed in small deltas", async () => {
		faux = registerFauxProvider({ tokenSize: { min: 1, max: 3 } });
		faux.setResponses([
			fauxAssistantMessage([fauxThinking("Use the tool."), fauxToolCall("add", { a: 20, b: 22 }, { id: "f1" })]),
			fauxAssistantMessage("The answer is 42."),
		]);
		const add = addTool();
		const agent = new Agent({ initialState: { model: faux.getModel(), tools: [add], thinkingLevel: "medium" } });
		const events = record(agent);
		await agent.prompt("What is 20 + 22?");
		assertRunInvariants(events);
		expect(add.calls).toBe(1);
		expect(agent.state.messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(textOf(agent.state.messages[2])).toBe("42");
		expect(textOf(agent.state.messages[3])).toBe("The answer is 42.");
		expect(events.filter((event) => event.type === "message_update").length).toBeGreaterThan(10);
		expect(faux.getPendingResponseCount()).toBe(0);
	});

	test("invalid arguments from the model are reported back, and the model can correct itself", async () => {
		faux = registerFauxProvider();
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("add", { a: "one", b: 2 })]),
			(context) => {
				const last = context.messages.at(-1);
				expect(last).toMatchObject({ role: "toolResult", isError: true });
				return fauxAssistantMessage([fauxToolCall("add", { a: 1, b: 2 })]);
			},
			fauxAssistantMessage("3"),
		]);
		const add = addTool();
		const agent = new Agent({ initialState: { model: faux.getModel(), tools: [add] } });
		await agent.prompt("1+2");
		expect(add.calls).toBe(1);
		expect(textOf(agent.state.messages.at(-1))).toBe("3");
	});

	test("abort mid-stream keeps the partial text", async () => {
		faux = registerFauxProvider({ tokensPerSecond: 200, tokenSize: { min: 4, max: 4 } });
		faux.setResponses([fauxAssistantMessage("This is a fairly long reply that will be cut off somewhere in the middle.")]);
		const agent = new Agent({ initialState: { model: faux.getModel() } });
		let deltas = 0;
		agent.subscribe((event) => {
			if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta" && ++deltas === 3) agent.abort();
		});
		await agent.prompt("go");
		const last = agent.state.messages.at(-1);
		expect(last).toMatchObject({ role: "assistant", stopReason: "aborted" });
		expect(textOf(last)).toBe("This is a fairly long reply".slice(0, 12));
	});

	test("interrupt steering over a real provider stream", async () => {
		faux = registerFauxProvider({ tokensPerSecond: 200, tokenSize: { min: 4, max: 4 } });
		faux.setResponses([fauxAssistantMessage([fauxText("Let me explain at great length why this matters so much.")]), fauxAssistantMessage("Short.")]);
		const agent = new Agent({ initialState: { model: faux.getModel() }, steeringMode: "interrupt" });
		let steered = false;
		agent.subscribe((event) => {
			if (!steered && event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
				steered = true;
				agent.steer(user("Be brief."));
			}
		});
		const events = record(agent);
		await agent.prompt("Why?");
		assertRunInvariants(events);
		const roles = agent.state.messages.map((message) => message.role);
		expect(roles).toEqual(["user", "assistant", "user", "assistant"]);
		expect(agent.state.messages[1]).toMatchObject({ stopReason: "aborted", errorMessage: INTERRUPTED_TEXT });
		expect(textOf(agent.state.messages[1]).length).toBeGreaterThan(0);
		expect(textOf(agent.state.messages[3])).toBe("Short.");
	});

	test("a provider error ends the run with the provider's message", async () => {
		faux = registerFauxProvider();
		faux.setResponses([fauxAssistantMessage("", { stopReason: "error", errorMessage: "529 overloaded" })]);
		const agent = new Agent({ initialState: { model: faux.getModel() } });
		await agent.prompt("hi");
		expect(agent.state.errorMessage).toBe("529 overloaded");
	});
});
