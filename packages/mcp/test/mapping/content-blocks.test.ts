/** MCP content → text and image blocks, apart from any transport. */
import { describe, expect, it } from "vitest";
import { contentBlocks } from "../../src/index.js";

describe("contentBlocks", () => {
	it("keeps text and images, and names links, embedded resources and audio in text, in order", () => {
		expect(
			contentBlocks([
				{ type: "text", text: "intro" },
				{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
				{ type: "resource_link", uri: "file:///a.md", name: "a.md", mimeType: "text/markdown", description: "the notes" },
				{ type: "resource_link", uri: "file:///b", name: "b" },
				{ type: "resource", resource: { uri: "file:///c.txt", mimeType: "text/plain", text: "line one" } },
				{ type: "resource", resource: { uri: "file:///d.bin", mimeType: "application/octet-stream", blob: "AAECAw==" } },
				{ type: "audio", data: "AAAA", mimeType: "audio/wav" },
			]),
		).toEqual([
			{ type: "text", text: "intro" },
			{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
			{ type: "text", text: 'Resource file:///a.md "a.md" (text/markdown): the notes' },
			{ type: "text", text: 'Resource file:///b "b"' },
			{ type: "text", text: "Resource file:///c.txt (text/plain):\nline one" },
			{ type: "text", text: "Resource file:///d.bin (application/octet-stream), 4 bytes of binary data, not shown" },
			{ type: "text", text: "[audio audio/wav, 3 bytes, not shown]" },
		]);
	});

	it("names a content type it does not know instead of dropping it", () => {
		expect(contentBlocks([{ type: "hologram" } as never])).toEqual([{ type: "text", text: '[unsupported MCP content type "hologram"]' }]);
	});
});
