import { Agent } from "@pi/agent-core";
import { fauxAssistantMessage, registerFauxProvider } from "@pi/ai";
import { createAgentUIStream, type MessageMetadataContext, uiMessageChunkSseStream } from "@pi/ui-stream";
import { describe, expect, it } from "vitest";
import { expectValidChunks } from "./helpers/ai-schemas.js";
import { readAll } from "./helpers/read-all.js";

const uiMessages = [{ id: "u1", role: "user" as const, parts: [{ type: "text", text: "Hi" }] }];

describe("messageMetadata", () => {
	it("replaces the default metadata on start and finish, and is told the run's messages and the default", async () => {
		const faux = registerFauxProvider();
		faux.setResponses([fauxAssistantMessage("Hello.")]);
		const seen: MessageMetadataContext[] = [];
		const stream = createAgentUIStream({
			agent: new Agent({ initialState: { model: faux.getModel() } }),
			uiMessages,
			messageMetadata: (context) => {
				seen.push({ ...context, messages: [...context.messages] });
				return context.phase === "start" ? { startedBy: "test" } : { cost: context.defaultMetadata?.usage.cost.total, replies: context.messages.length };
			},
		});
		const chunks = await readAll(stream);
		expect(chunks[0]).toEqual({ type: "start", messageId: expect.stringMatching(/^msg-/), messageMetadata: { startedBy: "test" } });
		expect(chunks.at(-1)).toEqual({ type: "finish", finishReason: "stop", messageMetadata: { cost: expect.any(Number), replies: 2 } });
		expect(seen.map((context) => context.phase)).toEqual(["start", "finish"]);
		expect(seen[1]?.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
		expect(seen[1]?.defaultMetadata).toMatchObject({ model: "faux-1", provider: "faux" });
		await expectValidChunks(chunks);
		faux.unregister();
	});

	it("sends none when it returns undefined; uiMessageChunkSseStream turns the chunks into the protocol's events", async () => {
		const faux = registerFauxProvider();
		faux.setResponses([fauxAssistantMessage("Hello.")]);
		const stream = createAgentUIStream({ agent: new Agent({ initialState: { model: faux.getModel() } }), uiMessages, messageMetadata: () => undefined });
		const text = (await readAll(uiMessageChunkSseStream(stream))).map((bytes) => new TextDecoder().decode(bytes)).join("");
		const events = text.split("\n\n").filter(Boolean);
		expect(events.at(-1)).toBe("data: [DONE]");
		const chunks = events.slice(0, -1).map((event) => JSON.parse(event.slice("data: ".length)) as Record<string, unknown>);
		expect(chunks.at(-1)).toEqual({ type: "finish", finishReason: "stop" });
		expect(chunks.every((chunk) => !("messageMetadata" in chunk))).toBe(true);
		await expectValidChunks(chunks);
		faux.unregister();
	});
});
