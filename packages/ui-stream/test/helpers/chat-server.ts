import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { Agent } from "@pi/agent-core";
import { createAgentUIStreamResponse, type UIMessageInput } from "@pi/ui-stream";

/** A request the server saw, and every SSE chunk it sent back (parsed), for the tests' checks. */
export interface SeenRequest {
	status: number;
	body: string;
	chunks: unknown[];
}

export interface ChatServer {
	url: string;
	requests: SeenRequest[];
	close(): Promise<void>;
}

/**
 * A plain node:http server on 127.0.0.1 that answers `POST /api/chat` with
 * `createAgentUIStreamResponse`, building the agent per request with `makeAgent`. It records
 * each response's chunks (by tapping the bytes it writes) so that tests can check them against
 * `ai`'s schema.
 */
export async function startChatServer(
	makeAgent: () => Agent | Promise<Agent>,
	options: { afterRequest?: (agent: Agent) => Promise<void>; files?: Record<string, { type: string; body: string }> } = {},
): Promise<ChatServer> {
	const requests: SeenRequest[] = [];
	const server: Server = createServer((req, res) => {
		// A page and its script, served from the chat's own origin (for the browser test).
		const file = req.method === "GET" ? options.files?.[req.url ?? ""] : undefined;
		if (file) return void res.writeHead(200, { "content-type": file.type }).end(file.body);
		void handle(req, res).catch((error: unknown) => {
			if (!res.headersSent) res.writeHead(500);
			res.end(String(error));
		});
	});
	const handle = async (req: IncomingMessage, res: ServerResponse) => {
		const controller = new AbortController();
		res.on("close", () => {
			if (!res.writableFinished) controller.abort();
		});
		let body = "";
		for await (const piece of req) body += piece;
		const { messages } = JSON.parse(body) as { messages: UIMessageInput[] };
		const agent = await makeAgent();
		const response = await createAgentUIStreamResponse({ agent, uiMessages: messages, signal: controller.signal });
		const seen: SeenRequest = { status: response.status, body: "", chunks: [] };
		requests.push(seen);
		const headers: Record<string, string> = {};
		response.headers.forEach((value, name) => {
			headers[name] = value;
		});
		res.writeHead(response.status, headers);
		if (!response.body) return res.end();
		const readable = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>);
		readable.on("data", (bytes: Buffer) => {
			seen.body += bytes.toString();
		});
		readable.on("error", () => res.destroy());
		readable.pipe(res);
		await new Promise<void>((resolve) => res.on("close", () => resolve()));
		await agent.waitForIdle();
		seen.chunks = seen.body
			.split("\n\n")
			.filter((event) => event.startsWith("data: ") && event !== "data: [DONE]")
			.map((event) => JSON.parse(event.slice("data: ".length)));
		await options.afterRequest?.(agent);
	};
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/api/chat`,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
