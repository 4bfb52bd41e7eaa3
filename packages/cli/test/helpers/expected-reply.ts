/**
 * What `@pi/ai` itself decodes from a capture: the reference a CLI test compares the CLI's output
 * with, so no expected text is typed by hand.
 */
import { type AssistantMessage, complete, getModel, type Model } from "@pi/ai";
import { sseResponse, startReplayServer } from "@pi/ai/testing";

/** Decodes `body` as the reply of catalog model `provider/id` through a replay server of its own. */
export async function expectedReply(provider: string, id: string, body: Uint8Array | string): Promise<AssistantMessage> {
	const server = await startReplayServer();
	try {
		const catalog = getModel(provider, id);
		if (!catalog) throw new Error(`no catalog model ${provider}/${id}`);
		const model: Model<any> = { ...catalog, baseUrl: catalog.api === "anthropic-messages" ? server.url : `${server.url}/v1` };
		server.enqueue(sseResponse(body));
		return await complete(model, { messages: [{ role: "user", content: "x", timestamp: 0 }] }, { apiKey: "test-key" });
	} finally {
		await server.close();
	}
}

/** The text blocks of a message, joined. */
export function textOf(message: AssistantMessage): string {
	return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** The thinking blocks of a message, joined. */
export function thinkingOf(message: AssistantMessage): string {
	return message.content.map((block) => (block.type === "thinking" ? block.thinking : "")).join("");
}

/** How the CLI prints a reply's text: as is, with a newline added when it does not end with one. */
export function printed(text: string): string {
	return text.endsWith("\n") ? text : `${text}\n`;
}
