/**
 * The vocabulary of @pi/mcp: how to reach a server, what a connection offers, and the shapes of
 * its resources and prompts. Types only: importing this module costs nothing at run time.
 */
import type { Api, Model } from "@pi/ai";
import type { AgentMessage, AgentTool, StreamFn } from "@pi/agent-core";

/** A server started as a child process, spoken to over its standard input and output. */
export interface McpStdioServer {
	/** The program to run, looked up on `PATH` (e.g. `"npx"`, `process.execPath`). */
	command: string;
	args?: string[];
	/**
	 * Variables for the child, on top of a safe few inherited from this process (`HOME`, `PATH`,
	 * `SHELL`, `TERM`, `USER`, `LOGNAME`, as the official SDK does): the rest of this process's
	 * environment, and its API keys, are not passed on unless named here.
	 */
	env?: Record<string, string>;
	/** The child's working folder. Default: this process's. */
	cwd?: string;
}

/**
 * A server at a URL, spoken to over Streamable HTTP; when the server answers the first request
 * with 400, 404 or 405, the older HTTP+SSE transport is tried at the same URL.
 */
export interface McpHttpServer {
	url: string | URL;
	/** Sent with every request, e.g. `{ Authorization: "Bearer …" }`. Never written to an error. */
	headers?: Record<string, string>;
}

/** What every connection takes, whatever the transport. */
export interface McpCommonOptions {
	/**
	 * Names the server in error messages and tool-result texts. Default: the name the server gives
	 * in its `initialize` answer (before that answer, the command's file name or the URL's host).
	 */
	name?: string;
	/**
	 * How long one request (connecting, a tool call, a listing) may go without an answer or a
	 * progress notification before it fails, in milliseconds. Default 60 000.
	 */
	timeoutMs?: number;
	/** Aborts connecting; once connected, aborting closes the connection. */
	signal?: AbortSignal;
	/**
	 * Answers the server's `sampling/createMessage` requests with `model`, streamed by `streamFn`
	 * (default `streamSimple` of @pi/ai). Without it the client does not advertise sampling, and a
	 * server that asks anyway gets a "method not found" error.
	 */
	sampling?: McpSamplingOptions;
	/**
	 * Called when the server says its list of tools, resources or prompts changed
	 * (`notifications/…/list_changed`). The next `tools()`, `resources()` or `prompts()` lists
	 * afresh; an agent keeps the tools it was given until the app sets `agent.state.tools` again.
	 */
	onListChanged?: (kind: McpListKind) => void;
}

/** The options of {@link connectMcp}: a stdio or an HTTP server, plus the common options. */
export type McpConnectOptions = (McpStdioServer | McpHttpServer) & McpCommonOptions;

/** Which list a `list_changed` notification refers to. */
export type McpListKind = "tools" | "resources" | "prompts";

/** How a server's request for an LLM completion is answered. */
export interface McpSamplingOptions {
	model: Model<Api>;
	/** Streams the reply; the agent's own `streamFn` fits. Default: `streamSimple` of @pi/ai. */
	streamFn?: StreamFn;
}

/** Which of the server's tools become agent tools. */
export interface McpToolsOptions {
	/** Put before each tool's name, e.g. `"github_"`, to keep names from two servers apart. Default `""`. */
	prefix?: string;
	/** Only these tools (server names, without the prefix). Default: all. */
	include?: string[];
	/** Not these tools (server names, without the prefix). Applied after `include`. */
	exclude?: string[];
}

/** Who the server says it is, from its `initialize` answer. */
export interface McpServerInfo {
	name: string;
	version: string;
	title?: string;
	/** The server's instructions for the model, when it sends them. */
	instructions?: string;
}

/**
 * What the server can do, as it declared at `initialize` (`tools`, `resources`, `prompts`,
 * `logging`, … each an object when supported, with `listChanged` or `subscribe` flags).
 */
export type McpServerCapabilities = Record<string, unknown> & {
	tools?: { listChanged?: boolean };
	resources?: { subscribe?: boolean; listChanged?: boolean };
	prompts?: { listChanged?: boolean };
};

/** One resource the server lists. */
export interface McpResource {
	uri: string;
	name: string;
	title?: string;
	description?: string;
	mimeType?: string;
}

/** One part of what `readResource` returns: text, or base64 `blob` for binary contents. */
export interface McpResourceContents {
	uri: string;
	mimeType?: string;
	text?: string;
	blob?: string;
}

/** One prompt (template) the server lists, with the arguments `getPrompt` takes. */
export interface McpPrompt {
	name: string;
	title?: string;
	description?: string;
	arguments?: { name: string; description?: string; required?: boolean }[];
}

/** The `details` of a tool result: the server's `structuredContent`, when it sent one. */
export type McpToolDetails = Record<string, unknown> | undefined;

/**
 * The `details` of a `tool_execution_update` made from a progress notification (a type, not an
 * interface, so that it fits the tool's `McpToolDetails`).
 */
export type McpProgressDetails = {
	progress: number;
	total?: number;
	message?: string;
};

/**
 * A live connection to one MCP server, made by {@link connectMcp}.
 *
 * Every method rejects with an error naming the server and what failed (it exited, with its code
 * and last standard-error lines; it timed out; it answered with an error) and never hangs past
 * `timeoutMs`. The tools' `execute` follows the agent contract: it throws on failure, and the loop
 * turns that into an error result for the model.
 *
 * @example
 * ```ts
 * const server = await connectMcp({ command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] });
 * const tools = await server.tools({ prefix: "everything_", exclude: ["get-env"] });
 * await server.close();
 * ```
 */
export interface McpConnection {
	/** The name used in messages: `options.name`, or else the server's own name (`serverInfo.name`). */
	readonly name: string;
	readonly serverInfo: McpServerInfo;
	readonly capabilities: McpServerCapabilities;
	/** The server's process id while it runs (stdio), e.g. to watch its memory; `undefined` over HTTP. */
	readonly pid: number | undefined;
	/**
	 * The server's tools as agent tools: named `prefix + name`, with the server's description, its
	 * JSON Schema as `parameters` (unchanged) and `label` from its `title` or name. The list is
	 * kept until the server announces a change; `[]` when the server has no tools capability.
	 */
	tools(options?: McpToolsOptions): Promise<AgentTool<any, McpToolDetails>[]>;
	/** Every resource the server lists (all pages). `[]` when it has no resources capability. */
	resources(): Promise<McpResource[]>;
	/** The contents of one resource. */
	readResource(uri: string): Promise<McpResourceContents[]>;
	/** Every prompt the server lists (all pages). `[]` when it has no prompts capability. */
	prompts(): Promise<McpPrompt[]>;
	/** A prompt filled in with `args`, as messages to pass to `agent.prompt()`. */
	getPrompt(name: string, args?: Record<string, string>): Promise<AgentMessage[]>;
	/**
	 * Ends the child process (stdin closed, then SIGTERM, then SIGKILL, two seconds apart) or the
	 * HTTP session (a DELETE). Calls in flight fail. Idempotent: later calls resolve at once.
	 */
	close(): Promise<void>;
}
