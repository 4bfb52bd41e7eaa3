import { Agent, type AgentMessage } from "@pi/agent-core";
import { type Context, fauxAssistantMessage, fauxText, fauxThinking, fauxToolCall, registerFauxProvider } from "@pi/ai";
import { fromUIMessages } from "@pi/ui-stream";
import { afterEach, describe, expect, it } from "vitest";
import { expectValidChunks, expectValidUIMessages } from "./helpers/ai-schemas.js";
import { type ChatServer, startChatServer } from "./helpers/chat-server.js";
import { NodeChat } from "./helpers/node-chat.js";
import { readAll } from "./helpers/read-all.js";
import { add, lookup } from "./helpers/tools.js";

let server: ChatServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

describe("ai's AbstractChat with DefaultChatTransport, against a node:http server on createAgentUIStreamResponse", () => {
	it("streams reasoning, text and two tool calls (one failing), then a second turn with the whole context", async () => {
		const faux = registerFauxProvider({ seed: 7 });
		const contexts: Context[] = [];
		faux.setResponses([
			fauxAssistantMessage([fauxThinking("The user wants a sum and a word."), fauxText("Let me check."), fauxToolCall("add", { a: 2, b: 3 }, { id: "call_add" }), fauxToolCall("lookup", { word: "zyx" }, { id: "call_lookup" })]),
			fauxAssistantMessage("2 + 3 is 5; zyx is not in the dictionary."),
			(context) => {
				contexts.push({ messages: structuredClone(context.messages) });
				return fauxAssistantMessage("You asked about 2 + 3 and zyx.");
			},
		]);
		server = await startChatServer(() => new Agent({ initialState: { model: faux.getModel(), tools: [add, lookup] } }));
		const chat = new NodeChat(server.url);

		await chat.sendMessage({ text: "What is 2 + 3, and what is zyx?" });
		expect(chat.status).toBe("ready");
		expect(chat.errors).toEqual([]);
		const reply = chat.messages[1];
		expect(reply?.role).toBe("assistant");
		expect(reply?.parts.map((part) => part.type)).toEqual(["step-start", "reasoning", "text", "tool-add", "tool-lookup", "step-start", "text"]);
		expect(reply?.parts[1]).toMatchObject({ type: "reasoning", text: "The user wants a sum and a word.", state: "done" });
		expect(reply?.parts[3]).toMatchObject({ type: "tool-add", toolCallId: "call_add", state: "output-available", input: { a: 2, b: 3 }, output: "5" });
		expect(reply?.parts[4]).toMatchObject({ type: "tool-lookup", toolCallId: "call_lookup", state: "output-error", errorText: 'no entry for "zyx"' });
		expect(reply?.parts[6]).toMatchObject({ type: "text", text: "2 + 3 is 5; zyx is not in the dictionary." });
		// The metadata: the model, the provider, the usage with cost, and each step under pi.
		expect(reply?.metadata).toMatchObject({ model: "faux-1", provider: "faux", usage: { cost: { total: expect.any(Number) } }, pi: { steps: [{ stopReason: "toolUse" }, { stopReason: "stop" }] } });

		const first = server.requests[0];
		expect(first?.status).toBe(200);
		const types = (first?.chunks ?? []).map((chunk) => (chunk as { type: string }).type);
		expect(types[0]).toBe("start");
		expect(types.at(-1)).toBe("finish");
		expect(types.filter((type) => type === "start-step")).toHaveLength(2);
		expect(types.filter((type) => type === "finish-step")).toHaveLength(2);
		expect(types.indexOf("tool-input-start")).toBeLessThan(types.indexOf("tool-input-available"));
		expect(types).toContain("tool-input-delta");
		expect(first?.chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
		await expectValidChunks(first?.chunks ?? []);
		await expectValidUIMessages(chat.messages);

		// The second turn: the client resends everything; the model sees the whole, valid transcript.
		await chat.sendMessage({ text: "What did I ask?" });
		expect(chat.messages.at(-1)?.parts.at(-1)).toMatchObject({ type: "text", text: "You asked about 2 + 3 and zyx." });
		const seen = contexts[0]?.messages ?? [];
		expect(seen.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "assistant", "user"]);
		expect(seen[1]).toMatchObject({ role: "assistant", content: [{ type: "thinking" }, { type: "text", text: "Let me check." }, { type: "toolCall", id: "call_add" }, { type: "toolCall", id: "call_lookup" }] });
		expect(seen[2]).toMatchObject({ role: "toolResult", toolCallId: "call_add", isError: false, content: [{ type: "text", text: "5" }] });
		expect(seen[3]).toMatchObject({ role: "toolResult", toolCallId: "call_lookup", isError: true, content: [{ type: "text", text: 'no entry for "zyx"' }] });
		expect(seen[5]).toMatchObject({ role: "user", content: "What did I ask?" });
		await expectValidChunks(server.requests[1]?.chunks ?? []);
		await expectValidUIMessages(chat.messages);

		// What the client holds converts back to the transcript the server had, block for block.
		const back: AgentMessage[] = fromUIMessages(chat.messages);
		expect(back.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "assistant", "user", "assistant"]);
		faux.unregister();
	});

	it("leaves reasoning out with sendReasoning: false", async () => {
		const faux = registerFauxProvider();
		faux.setResponses([fauxAssistantMessage([fauxThinking("secret thoughts"), fauxText("Hello.")])]);
		const { createAgentUIStream } = await import("@pi/ui-stream");
		const agent = new Agent({ initialState: { model: faux.getModel() } });
		const stream = createAgentUIStream({ agent, uiMessages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Hi" }] }], sendReasoning: false });
		const chunks = await readAll(stream);
		expect(chunks.map((chunk) => chunk.type)).toEqual(["start", "start-step", "text-start", ...chunks.filter((c) => c.type === "text-delta").map(() => "text-delta"), "text-end", "finish-step", "finish"]);
		await expectValidChunks(chunks);
		faux.unregister();
	});
});
