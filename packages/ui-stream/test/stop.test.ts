import { Agent, createMemorySessionStorage, openSession } from "@pi/agent-core";
import { type AssistantMessage, fauxAssistantMessage, registerFauxProvider } from "@pi/ai";
import { afterEach, describe, expect, it } from "vitest";
import { expectValidChunks } from "./helpers/ai-schemas.js";
import { type ChatServer, startChatServer } from "./helpers/chat-server.js";
import { NodeChat } from "./helpers/node-chat.js";

let server: ChatServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("stop() in the client", () => {
	it("aborts the agent through the request's signal: the model call is cancelled and the partial reply kept in the session as aborted", async () => {
		const long = "word ".repeat(4000);
		const faux = registerFauxProvider({ tokensPerSecond: 200 });
		faux.setResponses([fauxAssistantMessage(long)]);
		const storage = createMemorySessionStorage();
		let finished: Agent | undefined;
		server = await startChatServer(async () => new Agent({ session: await openSession(storage.reopen()), initialState: { model: faux.getModel() } }), {
			afterRequest: async (agent) => {
				finished = agent;
				await agent.session?.close();
			},
		});
		const chat = new NodeChat(server.url);
		const sending = chat.sendMessage({ text: "Talk for a long time." });
		await until(() => (chat.messages[1]?.parts.some((part) => part.type === "text" && part.text.length > 0) ?? false));
		await chat.stop();
		await sending;
		await until(() => finished !== undefined);

		const session = await openSession(storage.reopen());
		const messages = (await session.buildContext()).messages;
		expect(messages.map((message) => message.role)).toEqual(["user", "assistant"]);
		const partial = messages[1] as AssistantMessage;
		expect(partial.stopReason).toBe("aborted");
		const text = partial.content[0]?.type === "text" ? partial.content[0].text : "";
		expect(text.length).toBeGreaterThan(0);
		expect(text.length).toBeLessThan(long.length);
		expect(long.startsWith(text)).toBe(true);
		await expectValidChunks(server.requests[0]?.chunks ?? []);
		await session.close();
		faux.unregister();
	});
});
