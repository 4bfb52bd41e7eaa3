import { uiMessageChunkSchema, validateUIMessages } from "ai";
import { expect } from "vitest";

/** Checks each chunk against `ai`'s own `uiMessageChunkSchema`, naming the first that fails. */
export async function expectValidChunks(chunks: readonly unknown[]): Promise<void> {
	expect(chunks.length).toBeGreaterThan(0);
	const schema = uiMessageChunkSchema();
	for (const [index, chunk] of chunks.entries()) {
		const result = await schema.validate?.(chunk);
		if (!result?.success) throw new Error(`chunk ${index} ${JSON.stringify(chunk)} fails uiMessageChunkSchema: ${String(result && !result.success ? result.error : "no validator")}`);
	}
}

/** Checks UI messages with `ai`'s `validateUIMessages` (it throws on the first bad one). */
export async function expectValidUIMessages(messages: readonly unknown[]): Promise<void> {
	await expect(validateUIMessages({ messages })).resolves.toHaveLength(messages.length);
}
