import { readdirSync, readFileSync } from "node:fs";
import type { UIMessage as AiUIMessage, UIMessageChunk as AiUIMessageChunk } from "ai";
import { UI_MESSAGE_STREAM_HEADERS as AI_HEADERS } from "ai";
import { UI_MESSAGE_STREAM_HEADERS, type UIMessage, type UIMessageChunk, type UIMessageInput } from "@pi/ui-stream";
import { describe, expect, it } from "vitest";

/** `true` when every `A` is a `B`; checked by `tsc` over this file (the package's typecheck). */
type Assignable<A, B> = [A] extends [B] ? true : false;

// Our chunks and messages are ai's; ai's messages are what fromUIMessages takes.
const chunksAreAis: Assignable<UIMessageChunk, AiUIMessageChunk> = true;
const messagesAreAis: Assignable<UIMessage, AiUIMessage> = true;
const aisMessagesAreTaken: Assignable<AiUIMessage, UIMessageInput> = true;
// And the check can fail: a chunk ai does not know is not assignable.
const unknownChunk: Assignable<{ type: "not-a-chunk" }, AiUIMessageChunk> = false;

describe("@pi/ui-stream's own protocol types and constants", () => {
	it("match ai's (the type assertions above are checked by tsc), and the headers are ai's", () => {
		expect([chunksAreAis, messagesAreAis, aisMessagesAreTaken, unknownChunk]).toEqual([true, true, true, false]);
		expect({ ...UI_MESSAGE_STREAM_HEADERS }).toEqual(AI_HEADERS);
	});

	it("has no run-time dependency on ai: no source file imports it, and package.json lists it only for development", () => {
		const sources = readdirSync(new URL("../src/", import.meta.url)).map((name) => readFileSync(new URL(`../src/${name}`, import.meta.url), "utf8"));
		for (const source of sources) expect(source).not.toMatch(/from "(ai|@ai-sdk\/[^"]+)"/);
		const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as Record<string, Record<string, string> | undefined>;
		expect(Object.keys(pkg.dependencies ?? {})).toEqual([]);
		expect(Object.keys(pkg.peerDependencies ?? {})).not.toContain("ai");
	});
});
