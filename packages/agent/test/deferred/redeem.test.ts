/**
 * An agent whose reply is deferred: the run ends with the placeholder in the transcript;
 * `continue()` redeems it with `streamDeferred` (the usual `message_*` events), the final
 * message takes the placeholder's place, and the run goes on (its tool runs, the next turn
 * streams). An abort while redeeming ends the run `aborted`, keeps the handle, cancels nothing.
 * The provider is an emulated Anthropic Message Batches service on the replay server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AssistantMessage, streamSimple } from "@pi/ai";
import { jsonResponse, type ReplayServer, startReplayServer, textResponse } from "@pi/ai/testing";
import { Type } from "typebox";
import { Agent, type AgentMessage } from "../../src/index.js";
import { assertRunInvariants } from "../helpers/event-invariants.js";
import { record, textOf } from "../helpers/collect.js";
import { anthropicModel, BATCH_ID, bookTool, deferFirstCall, emulateBatches, KEY, toolUseMessage } from "./helpers.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function newAgent(tool = bookTool(), messages: AgentMessage[] = [], streamFn = deferFirstCall()) {
	return new Agent({
		initialState: { model: anthropicModel(server), tools: [tool], messages },
		streamFn,
		getApiKey: () => KEY,
	});
}

const assistants = (messages: readonly AgentMessage[]) => messages.filter((message): message is AssistantMessage => message.role === "assistant");

describe("a deferred reply in an agent", () => {
	it("ends the run with the placeholder, holding its handle", async () => {
		emulateBatches(server);
		const agent = newAgent();
		const events = record(agent);
		await agent.prompt("Tell me about ISBN 0-7653-1178-X");
		assertRunInvariants(events);
		const last = agent.state.messages.at(-1) as AssistantMessage;
		expect(last.stopReason).toBe("deferred");
		expect(last.deferred).toMatchObject({ api: "anthropic-messages", id: BATCH_ID });
		expect(agent.state.errorMessage).toBeUndefined();
	});

	it("continue() redeems it in place, runs the tool once and goes on to the next turn", async () => {
		const batches = emulateBatches(server);
		const tool = bookTool();
		const agent = newAgent(tool);
		await agent.prompt("Tell me about ISBN 0-7653-1178-X");
		const placeholder = agent.state.messages.at(-1) as AssistantMessage;
		const next = batches.end();

		const events = record(agent);
		await agent.continue();
		const added = assertRunInvariants(events);
		const redeemedEnd = events.find((event) => event.type === "message_end" && event.message.role === "assistant");
		expect(redeemedEnd).toMatchObject({ replaces: placeholder });
		expect(events.some((event) => event.type === "message_update")).toBe(true);
		expect(tool.calls).toEqual(["0-7653-1178-X"]);
		// The placeholder's place now holds the final reply; nothing else moved.
		const messages = agent.state.messages;
		expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(messages).not.toContain(placeholder);
		expect((messages[1] as AssistantMessage).stopReason).toBe("toolUse");
		expect((messages[1] as AssistantMessage).deferred).toBeUndefined();
		expect(textOf(messages[3])).toContain("Hello!");
		expect(added).toEqual(messages.slice(1));
		expect(next.requests).toHaveLength(1);
		expect(batches.cancel.requests).toHaveLength(0);
	});

	it("an abort while redeeming ends the run aborted, keeps the handle and cancels nothing; continue() redeems it later", async () => {
		const batches = emulateBatches(server);
		const tool = bookTool();
		const agent = newAgent(tool);
		await agent.prompt("Tell me about ISBN 0-7653-1178-X");
		const handle = (agent.state.messages.at(-1) as AssistantMessage).deferred;

		const events = record(agent);
		const running = agent.continue();
		// Abort once the first status check came back: the redemption is waiting to poll again.
		while (batches.status.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
		agent.abort();
		await running;
		assertRunInvariants(events);
		const last = agent.state.messages.at(-1) as AssistantMessage;
		expect(last.stopReason).toBe("aborted");
		expect(last.deferred).toEqual(handle);
		expect(agent.state.messages).toHaveLength(2);
		expect(batches.cancel.requests).toHaveLength(0);
		expect(tool.calls).toEqual([]);

		batches.end();
		await agent.continue();
		expect(tool.calls).toEqual(["0-7653-1178-X"]);
		expect(assistants(agent.state.messages).map((message) => message.stopReason)).toEqual(["toolUse", "stop"]);
	});

	it("a reply with tool calls redeemed after a restart runs the tools once", async () => {
		const batches = emulateBatches(server);
		const first = newAgent();
		await first.prompt("Tell me about ISBN 0-7653-1178-X");
		// The restart: only the transcript, as JSON, goes to a new agent.
		const saved = JSON.parse(JSON.stringify(first.state.messages)) as AgentMessage[];
		batches.end();

		const tool = bookTool();
		const second = newAgent(tool, saved, streamSimple);
		await second.continue();
		expect(tool.calls).toEqual(["0-7653-1178-X"]);
		expect(second.state.messages.filter((message) => message.role === "toolResult")).toHaveLength(1);
		expect(assistants(second.state.messages).filter((message) => message.stopReason === "deferred")).toHaveLength(0);
		// A second continue() has nothing deferred left to redeem.
		await expect(second.continue()).rejects.toThrow(/assistant/);
		expect(tool.calls).toHaveLength(1);
	});
});

describe("a deferred reply with structured output", () => {
	it("continue() redeems it with the run's `output`: the redeemed reply carries the validated object", async () => {
		const batches = emulateBatches(server);
		const agent = new Agent({
			initialState: { model: anthropicModel(server) },
			streamFn: deferFirstCall(),
			getApiKey: () => KEY,
			output: { schema: Type.Object({ title: Type.String(), rating: Type.Integer() }), name: "book" },
		});
		await agent.prompt("Recommend a book.");
		const placeholder = agent.state.messages.at(-1) as AssistantMessage;
		expect(placeholder.stopReason).toBe("deferred");
		// The batch ends with a reply whose text is the JSON object.
		const message = { ...toolUseMessage(), content: [{ type: "text", text: '{"title":"The Name of the Wind","rating":7}' }], stop_reason: "end_turn" };
		batches.status.remove();
		server.route("GET", "/v1/messages/batches/{id}", jsonResponse(200, { id: BATCH_ID, processing_status: "ended", results_url: `${server.url}/v1/messages/batches/${BATCH_ID}/results` }));
		const customId = (batches.submit.requests[0]?.json as { requests: { custom_id: string }[] }).requests[0]?.custom_id;
		server.route("GET", "/v1/messages/batches/{id}/results", textResponse(200, `${JSON.stringify({ custom_id: customId, result: { type: "succeeded", message } })}\n`));
		await agent.continue();
		const last = agent.state.messages.at(-1) as AssistantMessage;
		expect(last.stopReason).toBe("stop");
		expect(last.output).toEqual({ title: "The Name of the Wind", rating: 7 });
	});
});
