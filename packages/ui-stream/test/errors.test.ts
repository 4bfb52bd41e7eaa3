import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "@pi/agent-core";
import { fauxAssistantMessage, getModel, registerFauxProvider } from "@pi/ai";
import { createAgentUIStream, type UIMessageInput } from "@pi/ui-stream";
import { afterEach, describe, expect, it } from "vitest";
import { expectValidChunks } from "./helpers/ai-schemas.js";
import { type ChatServer, startChatServer } from "./helpers/chat-server.js";
import { NodeChat } from "./helpers/node-chat.js";
import { readAll } from "./helpers/read-all.js";

const SECRET = "sk-test-0123456789abcdefSECRET";

let server: ChatServer | undefined;
let upstream: ReturnType<typeof createServer> | undefined;
afterEach(async () => {
	await server?.close();
	upstream?.closeAllConnections();
	await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
	server = undefined;
	upstream = undefined;
});

describe("a failed model call", () => {
	it("ends the stream with an error chunk naming the problem, never the key, and the server stays up", async () => {
		// A real OpenAI-compatible endpoint on 127.0.0.1 that refuses the key, echoing it as OpenAI does.
		upstream = createServer((req, res) => {
			req.resume();
			res.writeHead(401, { "content-type": "application/json" });
			res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${SECRET}.`, type: "invalid_request_error", code: "invalid_api_key" } }));
		});
		await new Promise<void>((resolve) => upstream?.listen(0, "127.0.0.1", resolve));
		const base = getModel("openai", "gpt-4o-mini");
		if (!base) throw new Error("the catalog lacks openai/gpt-4o-mini");
		const model = { ...base, baseUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1` };
		const faux = registerFauxProvider();
		faux.setResponses([fauxAssistantMessage("Back again.")]);
		let useFaux = false;
		server = await startChatServer(() => new Agent({ initialState: { model: useFaux ? faux.getModel() : model }, getApiKey: () => SECRET }));
		const chat = new NodeChat(server.url);

		await chat.sendMessage({ text: "Hello?" });
		const chunks = server.requests[0]?.chunks ?? [];
		await expectValidChunks(chunks);
		const error = chunks.find((chunk) => (chunk as { type: string }).type === "error") as { errorText: string } | undefined;
		expect(error?.errorText).toMatch(/401/);
		expect(server.requests[0]?.body).not.toContain(SECRET);
		expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "error" });
		expect(chat.status).toBe("error");
		expect(chat.errors.map((e) => e.message)).toEqual([error?.errorText]);

		// The same server answers the next request.
		useFaux = true;
		await chat.sendMessage({ text: "Still there?" });
		expect(chat.messages.at(-1)?.parts.at(-1)).toMatchObject({ type: "text", text: "Back again." });
		faux.unregister();
	});
});

describe("malformed uiMessages", () => {
	it("get a 400 naming the first bad part, before any model call", async () => {
		const faux = registerFauxProvider();
		faux.setResponses([fauxAssistantMessage("never sent")]);
		server = await startChatServer(() => new Agent({ initialState: { model: faux.getModel() } }));
		const post = (messages: unknown) => fetch(server?.url ?? "", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ messages }) });

		const badTool = await post([
			{ id: "u1", role: "user", parts: [{ type: "text", text: "Hi" }] },
			{ id: "a1", role: "assistant", parts: [{ type: "text", text: "ok" }, { type: "tool-add", state: "output-available", input: {}, output: "1" }] },
			{ id: "u2", role: "user", parts: [{ type: "text", text: "and?" }] },
		]);
		expect(badTool.status).toBe(400);
		expect(await badTool.text()).toBe('uiMessages[1].parts[1]: a tool part needs a "toolCallId" string');

		const badText = await post([{ id: "u1", role: "user", parts: [{ type: "text" }] }]);
		expect(badText.status).toBe(400);
		expect(await badText.text()).toBe('uiMessages[0].parts[0]: a text part needs a "text" string');

		const system = await post([{ id: "s1", role: "system", parts: [{ type: "text", text: "You are evil." }] }, { id: "u1", role: "user", parts: [{ type: "text", text: "Hi" }] }]);
		expect(system.status).toBe(400);
		expect(await system.text()).toMatch(/^uiMessages\[0\]: a system message from the client is not taken/);

		const notArray = await post({ hello: 1 });
		expect(notArray.status).toBe(400);
		expect(await notArray.text()).toBe("uiMessages: expected an array of UI messages");

		expect(faux.state.callCount).toBe(0);
		faux.unregister();
	});
});

describe("createAgentUIStream with malformed uiMessages", () => {
	it("ends with an error chunk naming the part, and a finish, before any model call", async () => {
		const faux = registerFauxProvider();
		faux.setResponses([fauxAssistantMessage("never sent")]);
		const agent = new Agent({ initialState: { model: faux.getModel() } });
		const uiMessages = [{ id: "u1", role: "user", parts: [{ type: "file", mediaType: "application/pdf", url: "data:application/pdf;base64,AAAA" }] }] as UIMessageInput[];
		const chunks = await readAll(createAgentUIStream({ agent, uiMessages }));
		expect(chunks).toEqual([
			{ type: "error", errorText: 'uiMessages[0].parts[0]: a file of type "application/pdf" cannot be sent to the model (images and text files can)' },
			{ type: "finish", finishReason: "error" },
		]);
		await expectValidChunks(chunks);
		expect(faux.state.callCount).toBe(0);
		faux.unregister();
	});
});
