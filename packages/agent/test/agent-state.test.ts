import { fauxToolCall } from "@pi/ai";
import { describe, expect, test } from "vitest";
import { Agent, type AgentMessage, type AgentTool } from "../src/index.js";
import { gate, user } from "./helpers/collect.js";
import { reply, scriptedStream, testModel } from "./helpers/scripted-stream.js";
import { addTool, customTool } from "./helpers/tools.js";

describe("Agent state", () => {
	test("defaults: empty prompt and transcript, thinking off, not streaming", () => {
		const agent = new Agent();
		expect(agent.state.systemPrompt).toBe("");
		expect(agent.state.messages).toEqual([]);
		expect(agent.state.tools).toEqual([]);
		expect(agent.state.thinkingLevel).toBe("off");
		expect(agent.state.isStreaming).toBe(false);
		expect(agent.state.streamingMessage).toBeUndefined();
		expect(agent.state.pendingToolCalls.size).toBe(0);
		expect(agent.state.errorMessage).toBeUndefined();
		expect(agent.signal).toBeUndefined();
	});

	test("assigning tools or messages copies the array", () => {
		const tools: AgentTool<any>[] = [addTool()];
		const messages: AgentMessage[] = [user("a")];
		const agent = new Agent({ initialState: { tools, messages } });
		tools.push(addTool());
		messages.push(user("b"));
		expect(agent.state.tools).toHaveLength(1);
		expect(agent.state.messages).toHaveLength(1);
		const next = [user("c")];
		agent.state.messages = next;
		next.push(user("d"));
		expect(agent.state.messages).toHaveLength(1);
		agent.state.tools = tools;
		expect(agent.state.tools).not.toBe(tools);
		expect(agent.state.tools).toEqual(tools);
	});

	test("systemPrompt, model and thinkingLevel reach the model call; `off` sends no reasoning", async () => {
		const streamFn = scriptedStream([reply("a"), reply("b")]);
		const agent = new Agent({ initialState: { model: testModel, systemPrompt: "Be terse.", thinkingLevel: "high" }, streamFn, sessionId: "s-9" });
		await agent.prompt("one");
		expect(streamFn.contexts[0]?.systemPrompt).toBe("Be terse.");
		expect(streamFn.options[0]).toMatchObject({ reasoning: "high", sessionId: "s-9" });
		agent.state.thinkingLevel = "off";
		await agent.prompt("two");
		expect(streamFn.options[1]?.reasoning).toBeUndefined();
	});

	test("isStreaming, streamingMessage and pendingToolCalls follow the run", async () => {
		const release = gate();
		const seen: string[] = [];
		let agent!: Agent;
		const slow = customTool("slow", async () => {
			seen.push(`pending:${[...agent.state.pendingToolCalls].join(",")}`);
			await release.promise;
		});
		agent = new Agent({ initialState: { model: testModel, tools: [slow] }, streamFn: scriptedStream([reply([fauxToolCall("slow", { text: "x" }, { id: "s1" })]), reply("done")]) });
		agent.subscribe((event) => {
			if (event.type === "message_update") seen.push(`streaming:${agent.state.streamingMessage === event.message}`);
			if (event.type === "message_end" && event.message.role === "assistant") seen.push(`after-end:${agent.state.streamingMessage === undefined}`);
		});
		const running = agent.prompt("go");
		expect(agent.state.isStreaming).toBe(true);
		expect(agent.signal).toBeInstanceOf(AbortSignal);
		await new Promise((resolve) => setTimeout(resolve, 5));
		release.resolve();
		await running;
		expect(seen).toContain("pending:s1");
		expect(seen).toContain("streaming:true");
		expect(seen).toContain("after-end:true");
		expect(seen).not.toContain("streaming:false");
		expect(agent.state.isStreaming).toBe(false);
		expect(agent.state.pendingToolCalls.size).toBe(0);
		expect(agent.signal).toBeUndefined();
	});

	test("errorMessage holds the failed reply's error, and is cleared by the next run", async () => {
		const streamFn = scriptedStream([reply("", { stopReason: "error", errorMessage: "401 unauthorized" }), reply("fine")]);
		const agent = new Agent({ initialState: { model: testModel }, streamFn });
		await agent.prompt("a");
		expect(agent.state.errorMessage).toBe("401 unauthorized");
		await agent.prompt("b");
		expect(agent.state.errorMessage).toBeUndefined();
	});

	test("the transcript is appended in place during a run, never copied per event", async () => {
		const streamFn = scriptedStream([reply([fauxToolCall("add", { a: 1, b: 2 })]), reply("3")]);
		const agent = new Agent({ initialState: { model: testModel, tools: [addTool()] }, streamFn });
		const transcript = agent.state.messages;
		const identities = new Set<AgentMessage[]>();
		agent.subscribe(() => {
			identities.add(agent.state.messages);
		});
		await agent.prompt("1+2");
		expect(identities.size).toBe(1);
		expect(agent.state.messages).toBe(transcript);
		expect(transcript).toHaveLength(4);
	});

});
