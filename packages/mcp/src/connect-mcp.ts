import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { describeFailure } from "./describe-failure.js";
import type { ListChanges } from "./mcp-client-connection.js";
import type { McpCommonOptions, McpConnection, McpConnectOptions, McpHttpServer, McpStdioServer } from "./types.js";

/** The default of `timeoutMs`: the SDK's own default request timeout. */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

/** HTTP statuses with which a server that only speaks the older HTTP+SSE transport answers a POST. */
const SSE_FALLBACK_STATUSES = new Set([400, 404, 405]);

/**
 * Connects to an MCP server and resolves once it has answered `initialize`.
 *
 * - `{ command, args?, env?, cwd? }` starts the server as a child process (stdio);
 * - `{ url, headers? }` speaks Streamable HTTP, and falls back to the older HTTP+SSE transport
 *   when the server answers the first POST with 400, 404 or 405.
 *
 * Rejects, never hangs, with an error that names the server and the cause: a command that does
 * not exist, a child that exits before answering (its exit code and last stderr lines), an HTTP
 * status such as 401, no answer within `timeoutMs`, or `signal` aborted. The SDK is loaded on the
 * first call, so importing `@pi/mcp` stays cheap.
 *
 * @example
 * ```ts
 * import { connectMcp } from "@pi/mcp";
 *
 * const server = await connectMcp({ command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"], timeoutMs: 30_000 });
 * console.log(server.serverInfo.name, (await server.tools()).map((tool) => tool.name));
 * await server.close();
 * ```
 */
export async function connectMcp(options: McpConnectOptions): Promise<McpConnection> {
	const server = checkOptions(options);
	const timeoutMs = options.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
	options.signal?.throwIfAborted();
	if ("command" in server) return connectStdio(server, options, timeoutMs);
	return connectHttp(server, options, timeoutMs);
}

async function connectStdio(server: McpStdioServer, options: McpCommonOptions, timeoutMs: number): Promise<McpConnection> {
	const { StdioTransport } = await import("./stdio-transport.js");
	// Until the server has said its name, the command's file name stands for it.
	let name = options.name ?? (server.command.split(/[\\/]/).pop() || server.command);
	const transport = new StdioTransport(server);
	const failure = (error: unknown, what: string): Error =>
		describeFailure(error, { server: name, what, timeoutMs, command: server.command, exit: transport.closing ? undefined : transport.exit, stderr: transport.lastStderrLines() });
	const { client, changes } = await initialize(transport, options, timeoutMs, failure);
	name = options.name ?? client.getServerVersion()?.name ?? name;
	const { McpClientConnection } = await import("./mcp-client-connection.js");
	return new McpClientConnection({ client, changes, name, timeoutMs, options, failure, pid: () => transport.pid });
}

async function connectHttp(server: McpHttpServer, options: McpCommonOptions, timeoutMs: number): Promise<McpConnection> {
	const url = new URL(server.url);
	// Until the server has said its name, the URL's host stands for it.
	let name = options.name ?? url.host;
	// The query may hold a token: messages show the URL without it.
	const shownUrl = `${url.origin}${url.pathname}`;
	let lost: string | undefined;
	const failure = (error: unknown, what: string): Error => describeFailure(error, { server: name, what, timeoutMs, url: shownUrl, lost });
	// The SDK reopens a broken event stream a few times, then gives up and reports it, but leaves
	// the requests whose answers were to come on it waiting until their timeout. The server is gone:
	// close the client, so that they fail now, naming what happened.
	const onTransportError = (error: Error, client: Client) => {
		if (lost === undefined && /Maximum reconnection attempts/.test(error.message)) {
			lost = error.message;
			void client.close().catch(() => {});
		}
	};
	const requestInit: RequestInit = server.headers ? { headers: server.headers } : {};
	const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
	const streamable = new StreamableHTTPClientTransport(url, { requestInit });
	let connected: { client: Client; changes: ListChanges };
	let transport: Transport = streamable;
	try {
		connected = await initialize(streamable, options, timeoutMs, (error) => error as Error, onTransportError);
	} catch (error) {
		const status = (error as { code?: unknown }).code;
		if (typeof status !== "number" || !SSE_FALLBACK_STATUSES.has(status)) throw failure(error, "initialize");
		const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
		const sse = new SSEClientTransport(url, { requestInit });
		transport = sse;
		connected = await initialize(sse, options, timeoutMs, failure, onTransportError);
	}
	const terminate = transport === streamable ? () => streamable.terminateSession() : undefined;
	name = options.name ?? connected.client.getServerVersion()?.name ?? name;
	const { McpClientConnection } = await import("./mcp-client-connection.js");
	return new McpClientConnection({ ...connected, name, timeoutMs, options, failure, terminate });
}

/** A client connected over `transport`, with the sampling handler when asked; closed again on failure. */
async function initialize(
	transport: Transport,
	options: McpCommonOptions,
	timeoutMs: number,
	failure: (error: unknown, what: string) => Error,
	onTransportError?: (error: Error, client: Client) => void,
): Promise<{ client: Client; changes: ListChanges }> {
	const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
	const { listenForListChanges } = await import("./mcp-client-connection.js");
	const client = new Client(
		{ name: "@pi/mcp", version: "0.1.0" },
		// Sampling is advertised only when the app gave a model to answer with.
		{ capabilities: options.sampling ? { sampling: {} } : {} },
	);
	// Failures reach the caller through the request that meets them (the SDK's default handler
	// would print them to the console); `onTransportError` sees the ones that end the connection.
	client.onerror = (error) => onTransportError?.(error, client);
	const changes = listenForListChanges(client);
	if (options.sampling) {
		const { answerSampling } = await import("./answer-sampling.js");
		await answerSampling(client, options.sampling);
	}
	try {
		await client.connect(transport, { timeout: timeoutMs, signal: options.signal });
		deliverInOrder(transport);
		return { client, changes };
	} catch (error) {
		await client.close().catch(() => {});
		// Aborted by the caller: its own reason, as `signal.throwIfAborted()` would give it.
		if (options.signal?.aborted) throw options.signal.reason;
		throw failure(error, "initialize");
	}
}

/**
 * Makes the client handle the server's messages strictly in the order they came. The SDK runs a
 * notification's handler a microtask later but settles a response at once, so a progress
 * notification sent right before its tool's answer (in the same chunk of stdout or of the SSE
 * stream) found its handler already gone and the last `tool_execution_update` was lost. Chained
 * like this, each message is delivered after the handlers the previous one scheduled.
 */
function deliverInOrder(transport: Transport): void {
	const deliver = transport.onmessage;
	if (!deliver) return;
	let delivered = Promise.resolve();
	transport.onmessage = (message, extra) => {
		delivered = delivered.then(() => deliver(message, extra)).catch((error: unknown) => transport.onerror?.(error as Error));
	};
}

/** The server part of `options`, checked: exactly one of `command` and `url`, of the right types. */
function checkOptions(options: McpConnectOptions): McpStdioServer | McpHttpServer {
	if (typeof options !== "object" || options === null) throw new TypeError("connectMcp(options): options must be an object with `command` or `url`.");
	const hasCommand = "command" in options && options.command !== undefined;
	const hasUrl = "url" in options && options.url !== undefined;
	if (hasCommand === hasUrl) {
		throw new TypeError("connectMcp(options): pass exactly one of `command` (a server started over stdio) and `url` (a server over HTTP).");
	}
	if (options.timeoutMs !== undefined && !(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)) {
		throw new TypeError(`connectMcp(options): timeoutMs must be a positive number of milliseconds, got ${String(options.timeoutMs)}.`);
	}
	if (hasCommand) {
		const server = options as McpStdioServer;
		if (typeof server.command !== "string" || server.command === "") throw new TypeError("connectMcp(options): command must be a non-empty string.");
		if (server.args !== undefined && !(Array.isArray(server.args) && server.args.every((arg) => typeof arg === "string"))) {
			throw new TypeError("connectMcp(options): args must be an array of strings.");
		}
		return server;
	}
	const server = options as McpHttpServer;
	if (!URL.canParse(String(server.url))) throw new TypeError(`connectMcp(options): url is not a valid URL.`);
	const protocol = new URL(server.url).protocol;
	if (protocol !== "http:" && protocol !== "https:") throw new TypeError(`connectMcp(options): url must be http: or https:, got ${protocol}`);
	return server;
}
