/**
 * The adapter from a standard `Request → Response` handler (such as `handleProxyRequest`) to a
 * Node `http` request listener. It ships as a function rather than as code to copy because its
 * details are where a server dies or keeps spending: a client that drops its body, a client that
 * leaves mid-reply, a handler that throws.
 *
 * Only types come from `node:http`, so the proxy-server entry still loads in Deno, Bun and workers.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
	/**
	 * Told about a handler that threw or rejected (the client got a 500). Default: nothing; the
	 * error is never written to the response, since it may hold details a client must not see.
	 */
	onError?: (error: unknown, request: IncomingMessage) => void;
}

/**
 * Serves `handler` from Node's `http` (or `https`) server:
 * - the `Request` gets the incoming headers and a streamed body; its `signal` aborts when the
 *   response's connection closes before the response ended (the client left), so a model call
 *   behind it stops spending;
 * - a body the client drops midway errors the `Request`'s body stream (the handler answers or
 *   not, the process never crashes);
 * - the `Response` is streamed back with backpressure; writing stops, and the response body is
 *   cancelled, as soon as the socket is gone;
 * - a handler that throws answers 500 `{ "error": "Internal server error" }` (when nothing was
 *   sent yet) and is told to `onError`;
 * - a request body left unread when the response ends (a 413, say) closes the connection rather
 *   than leaving the next keep-alive request behind unread bytes.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * import { handleProxyRequest, toNodeHandler } from "@pi/agent-core/proxy-server";
 *
 * createServer(toNodeHandler((request) => handleProxyRequest(request, { authorize: (token) => token === process.env.APP_TOKEN })))
 *   .listen(8787, "127.0.0.1");
 * ```
 */
export function toNodeHandler(handler: (request: Request) => Response | Promise<Response>, options: NodeHandlerOptions = {}): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
	return (incoming, outgoing) => {
		void serve(handler, incoming, outgoing, options);
	};
}

async function serve(handler: (request: Request) => Response | Promise<Response>, incoming: IncomingMessage, outgoing: ServerResponse, options: NodeHandlerOptions): Promise<void> {
	const controller = new AbortController();
	const gone = () => {
		if (!outgoing.writableFinished) controller.abort(new Error("The client disconnected."));
	};
	outgoing.on("close", gone);
	// A socket error with no listener would be thrown as an uncaught exception.
	outgoing.on("error", gone);
	const body = requestBody(incoming);
	let response: Response;
	try {
		// Inside the try: `Request` refuses some methods (CONNECT, TRACE) and malformed targets.
		response = await handler(toRequest(incoming, body.stream, controller.signal));
	} catch (error) {
		options.onError?.(error, incoming);
		if (!outgoing.headersSent && !outgoing.destroyed) {
			finish(outgoing, body, 500, { "content-type": "application/json" }, JSON.stringify({ error: "Internal server error" }));
		} else outgoing.destroy();
		return;
	}
	if (outgoing.destroyed) {
		await response.body?.cancel(controller.signal.reason).catch(() => {});
		return;
	}
	const headers: Record<string, string> = {};
	response.headers.forEach((value, name) => {
		headers[name] = value;
	});
	if (!response.body) {
		finish(outgoing, body, response.status, headers);
		return;
	}
	outgoing.writeHead(response.status, headers);
	const reader = response.body.getReader();
	const cancel = () => void reader.cancel(controller.signal.reason).catch(() => {});
	controller.signal.addEventListener("abort", cancel, { once: true });
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			if (outgoing.destroyed) return;
			if (!outgoing.write(value)) await drained(outgoing);
		}
		finish(outgoing, body);
	} catch {
		// The response body failed, or was cancelled because the client left: nothing more to send.
		outgoing.destroy();
	} finally {
		controller.signal.removeEventListener("abort", cancel);
	}
}

/** Ends the response; closes the connection when the request body was not read to its end. */
function finish(outgoing: ServerResponse, body: RequestBody, status?: number, headers?: Record<string, string>, text?: string): void {
	if (!body.ended()) {
		if (!outgoing.headersSent) outgoing.setHeader("connection", "close");
		outgoing.on("finish", () => outgoing.socket?.destroySoon());
	}
	if (status !== undefined && !outgoing.headersSent) outgoing.writeHead(status, headers);
	outgoing.end(text);
}

function drained(outgoing: ServerResponse): Promise<void> {
	return new Promise((resolve) => {
		const done = () => {
			outgoing.off("drain", done);
			outgoing.off("close", done);
			resolve();
		};
		outgoing.on("drain", done);
		outgoing.on("close", done);
	});
}

interface RequestBody {
	stream: ReadableStream<Uint8Array> | undefined;
	/** True once the whole body was read (or there is none). */
	ended(): boolean;
}

/**
 * The incoming body as a web stream, read only when the handler pulls (so a body the handler
 * refuses is never buffered). A client that drops the connection midway errors the stream.
 */
function requestBody(incoming: IncomingMessage): RequestBody {
	if (incoming.method === "GET" || incoming.method === "HEAD") return { stream: undefined, ended: () => true };
	let ended = false;
	let failed = false;
	const stream = new ReadableStream<Uint8Array>({
		start(controller) {
			incoming.on("data", (chunk: Buffer) => {
				controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
				if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
			});
			incoming.on("end", () => {
				ended = true;
				controller.close();
			});
			const fail = () => {
				if (ended || failed) return;
				failed = true;
				controller.error(new Error("The client dropped the request body before its end."));
			};
			incoming.on("error", fail);
			incoming.on("aborted", fail);
			incoming.on("close", () => {
				if (!incoming.complete) fail();
			});
			incoming.pause();
		},
		pull() {
			incoming.resume();
		},
		cancel() {
			// The handler does not want the rest: stop reading; `finish` closes the connection.
			incoming.pause();
		},
	});
	return { stream, ended: () => ended };
}

function toRequest(incoming: IncomingMessage, body: ReadableStream<Uint8Array> | undefined, signal: AbortSignal): Request {
	const headers = new Headers();
	for (const [name, value] of Object.entries(incoming.headers)) {
		if (value === undefined) continue;
		try {
			headers.set(name, Array.isArray(value) ? value.join(", ") : value);
		} catch {
			// A header Node accepted but `Headers` refuses: leave it out rather than fail the request.
		}
	}
	const host = typeof incoming.headers.host === "string" && /^[\w.:[\]-]+$/.test(incoming.headers.host) ? incoming.headers.host : "localhost";
	const init: RequestInit & { duplex?: "half" } = { method: incoming.method, headers, signal };
	if (body) {
		init.body = body;
		init.duplex = "half";
	}
	return new Request(new URL(incoming.url ?? "/", `http://${host}`), init);
}
