import { describe, expect, test } from "vitest";
import { Agent, type AgentMessage, defaultConvertToLlm, isLlmMessage } from "../src/index.js";
import { record, textOf, user } from "./helpers/collect.js";
import { assertRunInvariants } from "./helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "./helpers/scripted-stream.js";

// Runtime view of custom messages; the type-level view is test/types/custom-messages.ts.
const notice = { role: "notification", text: "Connected.", timestamp: 1 } as unknown as AgentMessage;
const artifact = { role: "artifact", title: "plan.md", body: "1. test", timestamp: 2 } as unknown as AgentMessage;

describe("custom messages", () => {
	test("defaultConvertToLlm keeps user, assistant and toolResult messages and drops the rest", () => {
		const messages = [user("a"), notice, reply("b"), artifact, { role: "toolResult", toolCallId: "1", toolName: "t", content: [], isError: false, timestamp: 0 } as AgentMessage];
		expect(defaultConvertToLlm(messages).map((message) => message.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(isLlmMessage(notice)).toBe(false);
	});

	test("custom messages live in the transcript with their events; the model sees only what convertToLlm returns", async () => {
		const streamFn = scriptedStream([reply("Noted the plan.")]);
		const agent = new Agent({
			initialState: { model: testModel, messages: [notice] },
			streamFn,
			convertToLlm: (messages) =>
				defaultConvertToLlm(
					messages.map((message) => {
						const custom = message as unknown as { role: string; title?: string; body?: string; timestamp: number };
						return custom.role === "artifact" ? user(`Artifact ${custom.title}:\n${custom.body}`) : message;
					}),
				),
		});
		const events = record(agent);
		await agent.prompt([artifact, user("Follow the plan.")]);
		assertRunInvariants(events);
		expect(agent.state.messages.map((message) => (message as { role: string }).role)).toEqual(["notification", "artifact", "user", "assistant"]);
		expect(streamFn.contexts[0]?.messages.map(textOf)).toEqual(["Artifact plan.md:\n1. test", "Follow the plan."]);
		const started = events.filter((event) => event.type === "message_start").map((event) => (event as { message: { role: string } }).message.role);
		expect(started).toEqual(["artifact", "user", "assistant"]);
	});
});
