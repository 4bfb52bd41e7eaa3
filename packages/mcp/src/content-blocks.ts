import type { ImageContent, TextContent } from "@pi/ai";
import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";

/**
 * MCP content (of a tool result or a prompt message) as the blocks a model reads: `text` stays
 * text, `image` becomes an image block, and what a model cannot take as it is becomes text that
 * names it: a `resource_link` or an embedded `resource` names its URI (with the resource's text
 * when it is text), `audio` its type and size. Pure; keeps the order.
 *
 * @example
 * ```ts
 * contentBlocks([{ type: "resource_link", uri: "file:///a.md", name: "a.md" }]);
 * // [{ type: "text", text: 'Resource file:///a.md "a.md"' }]
 * ```
 */
export function contentBlocks(content: readonly ContentBlock[]): (TextContent | ImageContent)[] {
	return content.map(contentBlock);
}

/** One MCP content block as a text or image block; see {@link contentBlocks}. */
export function contentBlock(block: ContentBlock): TextContent | ImageContent {
	switch (block.type) {
		case "text":
			return { type: "text", text: block.text };
		case "image":
			return { type: "image", data: block.data, mimeType: block.mimeType };
		case "audio":
			return { type: "text", text: `[audio ${block.mimeType}, ${base64Bytes(block.data)} bytes, not shown]` };
		case "resource_link": {
			const described = block.description ? `: ${block.description}` : "";
			return { type: "text", text: `Resource ${block.uri} "${block.name}"${mimeNote(block.mimeType)}${described}` };
		}
		case "resource": {
			const { resource } = block;
			if ("text" in resource && typeof resource.text === "string") {
				return { type: "text", text: `Resource ${resource.uri}${mimeNote(resource.mimeType)}:\n${resource.text}` };
			}
			const blob = "blob" in resource && typeof resource.blob === "string" ? resource.blob : "";
			return { type: "text", text: `Resource ${resource.uri}${mimeNote(resource.mimeType)}, ${base64Bytes(blob)} bytes of binary data, not shown` };
		}
		default: {
			// A content type newer than this package: name it rather than drop it silently.
			const type = (block as { type?: unknown }).type;
			return { type: "text", text: `[unsupported MCP content type ${JSON.stringify(type)}]` };
		}
	}
}

function mimeNote(mimeType: string | undefined): string {
	return mimeType ? ` (${mimeType})` : "";
}

/** The decoded size of base64 `data`, without decoding it. */
function base64Bytes(data: string): number {
	const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
	return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
