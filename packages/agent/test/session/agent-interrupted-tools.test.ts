import { Agent, createMemorySessionStorage, openSession, type SessionStorage } from "@pi/agent-core";
import { type AssistantMessage, type Context, fauxToolCall, getModel, type Model, streamSimple, type ToolResultMessage } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { reply, scriptedStream, testModel } from "../helpers/scripted-stream.js";
import { customTool } from "../helpers/tools.js";

/** A session as a process killed while tools ran leaves it: two calls, one result. */
async function interruptedSession(): Promise<{ storage: SessionStorage & { reopen(): SessionStorage } }> {
	const storage = createMemorySessionStorage();
	const session = await openSession(storage);
	await session.appendMessage({ role: "user", content: "look up both", timestamp: 1 });
	const call: AssistantMessage = {
		...reply([fauxToolCall("lookup", { text: "a" }, { id: "call_a" }), fauxToolCall("lookup", { text: "b" }, { id: "call_b" })]),
		api: "openai-responses",
		provider: "openai",
		model: "gpt-6-luna",
	};
	await session.appendMessage(call);
	const done: ToolResultMessage = { role: "toolResult", toolCallId: "call_a", toolName: "lookup", content: [{ type: "text", text: "a found" }], isError: false, timestamp: 2 };
	await session.appendMessage(done);
	await session.close();
	return { storage };
}

function resultsPerCall(messages: readonly { role: string }[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const message of messages) {
		if (message.role === "toolResult") {
			const id = (message as ToolResultMessage).toolCallId;
			counts[id] = (counts[id] ?? 0) + 1;
		}
	}
	return counts;
}

/** The request body each provider's request builder makes of `context` (captured, never sent). */
async function requestBody(model: Model<any>, context: Context): Promise<string> {
	const controller = new AbortController();
	let body: unknown;
	const message = await streamSimple(model, context, {
		apiKey: "sk-test-not-a-real-key",
		signal: controller.signal,
		onPayload: (payload) => {
			body = payload;
			controller.abort();
			return undefined;
		},
	}).result();
	if (body === undefined) throw new Error(`${model.api}: no request was built (${message.stopReason}: ${message.errorMessage})`);
	return JSON.stringify(body);
}

describe("resuming after a crash in a tool turn", () => {
	it("continue() gives each interrupted call exactly one synthetic error result, runs no tool again, then calls the model", async () => {
		const { storage } = await interruptedSession();
		const session = await openSession(storage.reopen());
		const tool = customTool("lookup");
		let seen: Context | undefined;
		const streamFn = scriptedStream([
			(context) => {
				seen = context;
				return reply("both done");
			},
		]);
		const agent = new Agent({ session, initialState: { model: testModel, tools: [tool] }, streamFn });
		await agent.continue();
		expect(resultsPerCall(agent.state.messages)).toEqual({ call_a: 1, call_b: 1 });
		const synthetic = agent.state.messages[3] as ToolResultMessage;
		expect(synthetic).toMatchObject({ role: "toolResult", toolCallId: "call_b", toolName: "lookup", isError: true });
		expect((synthetic.content[0] as { text: string }).text).toMatch(/interrupted/);
		expect(seen?.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult"]);
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
		// Stored before the model call, so a second resume finds exactly one result per call.
		expect(resultsPerCall((await session.buildContext()).messages)).toEqual({ call_a: 1, call_b: 1 });
		await session.close();

		const again = await openSession(storage.reopen());
		const second = new Agent({ session: again, initialState: { model: testModel, tools: [tool] }, streamFn: scriptedStream([reply("more")]) });
		await second.prompt("and now?");
		expect(resultsPerCall(second.state.messages)).toEqual({ call_a: 1, call_b: 1 });
		await again.close();
	});

	it("a crash after the results were stored but before the model answered: a second resume adds no result", async () => {
		const { storage } = await interruptedSession();
		const session = await openSession(storage.reopen());
		// The model call fails this time (the process might as well have died here).
		const agent = new Agent({ session, initialState: { model: testModel }, streamFn: scriptedStream([]) });
		await agent.continue();
		await session.close();
		const again = await openSession(storage.reopen());
		expect(resultsPerCall((await again.buildContext()).messages)).toEqual({ call_a: 1, call_b: 1 });
		await again.close();
	});

	it("prompt() on such a transcript gives the results first, then the new user message", async () => {
		const { storage } = await interruptedSession();
		const session = await openSession(storage.reopen());
		const agent = new Agent({ session, initialState: { model: testModel }, streamFn: scriptedStream([reply("ok")]) });
		await agent.prompt("what happened?");
		expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "user", "assistant"]);
		await session.close();
	});

	it("every provider's request builder accepts the resumed context: each call has its result", async () => {
		const { storage } = await interruptedSession();
		const session = await openSession(storage.reopen());
		const agent = new Agent({ session, initialState: { model: testModel }, streamFn: scriptedStream([reply("ok")]) });
		await agent.continue();
		const messages = agent.state.messages.slice(0, 4) as Context["messages"];
		await session.close();
		const targets = [getModel("openai", "gpt-6-luna"), getModel("deepseek", "deepseek-chat"), getModel("anthropic", "claude-haiku-4-5"), getModel("google", "gemini-3.8-flash")];
		for (const model of targets) {
			const body = JSON.parse(await requestBody(model, { systemPrompt: "Be brief.", messages, tools: [customTool("lookup")] }));
			expect(pairs(model.api, body), model.api).toEqual({ calls: 2, results: 2, unmatched: 0 });
			expect(JSON.stringify(body), model.api).toMatch(/interrupted/);
		}
	});
});

/** Tool calls and results in a request body, and how many calls lack a result (by each API's own pairing). */
function pairs(api: string, body: any): { calls: number; results: number; unmatched: number } {
	let calls: string[] = [];
	let results: string[] = [];
	if (api === "openai-responses") {
		calls = body.input.filter((item: any) => item.type === "function_call").map((item: any) => item.call_id);
		results = body.input.filter((item: any) => item.type === "function_call_output").map((item: any) => item.call_id);
	} else if (api === "openai-completions") {
		calls = body.messages.flatMap((m: any) => (m.tool_calls ?? []).map((call: any) => call.id));
		results = body.messages.filter((m: any) => m.role === "tool").map((m: any) => m.tool_call_id);
	} else if (api === "anthropic-messages") {
		const blocks = body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : []));
		calls = blocks.filter((b: any) => b.type === "tool_use").map((b: any) => b.id);
		results = blocks.filter((b: any) => b.type === "tool_result").map((b: any) => b.tool_use_id);
	} else if (api === "google-generative-ai") {
		const parts = body.contents.flatMap((c: any) => c.parts);
		calls = parts.filter((p: any) => p.functionCall).map((p: any) => p.functionCall.id ?? p.functionCall.name);
		results = parts.filter((p: any) => p.functionResponse).map((p: any) => p.functionResponse.id ?? p.functionResponse.name);
	}
	const remaining = [...results];
	let unmatched = 0;
	for (const id of calls) {
		const at = remaining.indexOf(id);
		if (at < 0) unmatched++;
		else remaining.splice(at, 1);
	}
	return { calls: calls.length, results: results.length, unmatched };
}
