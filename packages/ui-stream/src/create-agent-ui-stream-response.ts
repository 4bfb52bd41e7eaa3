import { ToolApprovalError } from "@pi/agent-core";
import { type AgentUIStreamOptions, runPrepared } from "./create-agent-ui-stream.js";
import { prepareAgentRun } from "./prepare-agent-run.js";
import { UIMessagesError } from "./ui-messages-error.js";
import { sseByteStream, UI_MESSAGE_STREAM_HEADERS } from "./ui-message-sse.js";

/**
 * The agent's answer to a `useChat` request as a `Response` (server-sent events of UI message
 * chunks, with the protocol's headers): return it from a Next.js route handler or any
 * fetch-style handler. The UI messages are checked, and with a session the new ones stored and
 * the approval answers recorded, before the response starts: malformed `uiMessages` get a 400
 * whose text names the first bad part, and no model is called. An answer to a call already
 * decided is skipped (a resend); one that loses a race with another request deciding the same
 * call gets a 409 with the `ToolApprovalError`'s text. See {@link createAgentUIStream} for the stream.
 *
 * @example
 * ```ts
 * export async function POST(request: Request) {
 * 	const { messages } = await request.json();
 * 	const agent = new Agent({ initialState: { model, tools } });
 * 	return createAgentUIStreamResponse({ agent, uiMessages: messages, signal: request.signal });
 * }
 * ```
 */
export async function createAgentUIStreamResponse(options: AgentUIStreamOptions): Promise<Response> {
	let prepared: Awaited<ReturnType<typeof prepareAgentRun>>;
	try {
		prepared = await prepareAgentRun(options.agent, options.uiMessages);
	} catch (error) {
		if (error instanceof UIMessagesError) return new Response(error.message, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
		if (error instanceof ToolApprovalError) return new Response(error.message, { status: 409, headers: { "content-type": "text/plain; charset=utf-8" } });
		throw error;
	}
	const body = sseByteStream((send) => runPrepared(options, Promise.resolve(prepared), send), () => options.agent.abort());
	return new Response(body, { headers: UI_MESSAGE_STREAM_HEADERS });
}
