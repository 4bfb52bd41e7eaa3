/**
 * Anthropic's server-tool blocks (`server_tool_use`, `web_search_tool_result`,
 * `tool_search_tool_result`, `code_execution_tool_result`, …) are run by Anthropic: they are not
 * text and not client tool calls. They are kept whole, in wire order, in the `textSignature` of
 * the next text block (`before`), or of the last one when the reply ends with them (`after`; an
 * empty text block when the reply has no text), so that the same model gets them back exactly,
 * `encrypted_content` included. `transformMessages` keeps text signatures only for the same
 * model, so another provider gets the text alone.
 *
 * The envelope: `{"piAnthropicBlocks":1,"before":[…],"after":[…]}`.
 */
export interface ServerBlocksEnvelope {
	before: Record<string, unknown>[];
	after: Record<string, unknown>[];
}

const MARKER = '{"piAnthropicBlocks":1,';

export function encodeServerBlocks(envelope: ServerBlocksEnvelope): string | undefined {
	if (envelope.before.length === 0 && envelope.after.length === 0) return undefined;
	return JSON.stringify({ piAnthropicBlocks: 1, before: envelope.before, after: envelope.after });
}

/** The blocks a text block carries; none for any other signature. */
export function decodeServerBlocks(signature: string | undefined): ServerBlocksEnvelope {
	if (!signature?.startsWith(MARKER)) return { before: [], after: [] };
	try {
		const value = JSON.parse(signature) as Partial<ServerBlocksEnvelope>;
		return { before: Array.isArray(value.before) ? value.before : [], after: Array.isArray(value.after) ? value.after : [] };
	} catch {
		return { before: [], after: [] };
	}
}
