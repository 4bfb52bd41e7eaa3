import type { AgentMessage, AgentTool } from "@pi/agent-core";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
	PromptListChangedNotificationSchema,
	ResourceListChangedNotificationSchema,
	type Tool,
	ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { agentToolFromMcp, type McpToolCaller } from "./agent-tool-from-mcp.js";
import { promptMessages } from "./prompt-messages.js";
import { selectTools } from "./select-tools.js";
import type {
	McpCommonOptions,
	McpConnection,
	McpListKind,
	McpPrompt,
	McpResource,
	McpResourceContents,
	McpServerCapabilities,
	McpServerInfo,
	McpToolDetails,
	McpToolsOptions,
} from "./types.js";

/** What {@link McpClientConnection} is built from, once `initialize` has been answered. */
export interface McpClientConnectionParts {
	client: Client;
	name: string;
	timeoutMs: number;
	options: McpCommonOptions;
	/** Words a failure of `what` (see `describeFailure`), with what the transport knows. */
	failure: (error: unknown, what: string) => Error;
	/** Ends the server-side session before the transport closes (Streamable HTTP's DELETE). */
	terminate?: (() => Promise<void>) | undefined;
	/** The child's process id (stdio). */
	pid?: () => number | undefined;
	/** Where the `list_changed` notifications, whose handlers were set before `initialize`, are told. */
	changes: ListChanges;
}

/** Forwards `list_changed` notifications to the connection, once there is one. */
export interface ListChanges {
	listener?: (kind: McpListKind) => void;
}

/**
 * Sets the `list_changed` handlers on `client` before it connects, so that a change announced
 * right after `initialize` is not missed; they report to the returned holder.
 */
export function listenForListChanges(client: Client): ListChanges {
	const changes: ListChanges = {};
	client.setNotificationHandler(ToolListChangedNotificationSchema, () => changes.listener?.("tools"));
	client.setNotificationHandler(ResourceListChangedNotificationSchema, () => changes.listener?.("resources"));
	client.setNotificationHandler(PromptListChangedNotificationSchema, () => changes.listener?.("prompts"));
	return changes;
}

/**
 * The {@link McpConnection} over a connected SDK `Client`: every request carries `timeoutMs`
 * (reset by progress), every failure is worded by `failure`, and lists are kept until the server
 * says they changed.
 */
export class McpClientConnection implements McpConnection {
	readonly name: string;
	readonly serverInfo: McpServerInfo;
	readonly capabilities: McpServerCapabilities;

	private readonly parts: McpClientConnectionParts;
	private toolList: Promise<Tool[]> | undefined;
	private resourceList: Promise<McpResource[]> | undefined;
	private promptList: Promise<McpPrompt[]> | undefined;
	private closing: Promise<void> | undefined;
	private readonly onAbort = () => void this.close();

	constructor(parts: McpClientConnectionParts) {
		this.parts = parts;
		this.name = parts.name;
		const { client } = parts;
		const version = client.getServerVersion();
		const info: McpServerInfo = { name: version?.name ?? parts.name, version: version?.version ?? "" };
		if (version?.title) info.title = version.title;
		const instructions = client.getInstructions();
		if (instructions) info.instructions = instructions;
		this.serverInfo = info;
		this.capabilities = (client.getServerCapabilities() ?? {}) as McpServerCapabilities;
		this.listenForChanges();
		parts.options.signal?.addEventListener("abort", this.onAbort, { once: true });
	}

	/** The child's process id while it runs (stdio); `undefined` over HTTP. */
	get pid(): number | undefined {
		return this.parts.pid?.();
	}

	async tools(options: McpToolsOptions = {}): Promise<AgentTool<any, McpToolDetails>[]> {
		if (!this.capabilities.tools) return [];
		this.toolList ??= this.listAll("tools/list", async (cursor, request) => {
			const page = await this.parts.client.listTools(cursor ? { cursor } : undefined, request);
			return { items: page.tools, nextCursor: page.nextCursor };
		});
		const tools = await this.kept(this.toolList, () => (this.toolList = undefined));
		const callTool: McpToolCaller = (name, args, signal, onProgress) =>
			this.request(
				`tools/call "${name}"`,
				(request) => this.parts.client.callTool({ name, arguments: args }, undefined, { ...request, onprogress: onProgress }),
				signal,
			);
		return selectTools(tools, options, this.name).map((tool) => agentToolFromMcp(tool, options.prefix ?? "", callTool));
	}

	async resources(): Promise<McpResource[]> {
		if (!this.capabilities.resources) return [];
		this.resourceList ??= this.listAll("resources/list", async (cursor, request) => {
			const page = await this.parts.client.listResources(cursor ? { cursor } : undefined, request);
			return { items: page.resources.map(resourceOf), nextCursor: page.nextCursor };
		});
		return this.kept(this.resourceList, () => (this.resourceList = undefined));
	}

	async readResource(uri: string): Promise<McpResourceContents[]> {
		if (typeof uri !== "string" || uri === "") throw new TypeError("readResource(uri): uri must be a non-empty string.");
		const result = await this.request(`resources/read "${uri}"`, (request) => this.parts.client.readResource({ uri }, request));
		return result.contents.map((contents) => {
			const part: McpResourceContents = { uri: contents.uri };
			if (contents.mimeType !== undefined) part.mimeType = contents.mimeType;
			if ("text" in contents && typeof contents.text === "string") part.text = contents.text;
			if ("blob" in contents && typeof contents.blob === "string") part.blob = contents.blob;
			return part;
		});
	}

	async prompts(): Promise<McpPrompt[]> {
		if (!this.capabilities.prompts) return [];
		this.promptList ??= this.listAll("prompts/list", async (cursor, request) => {
			const page = await this.parts.client.listPrompts(cursor ? { cursor } : undefined, request);
			return { items: page.prompts.map(promptOf), nextCursor: page.nextCursor };
		});
		return this.kept(this.promptList, () => (this.promptList = undefined));
	}

	async getPrompt(name: string, args: Record<string, string> = {}): Promise<AgentMessage[]> {
		if (typeof name !== "string" || name === "") throw new TypeError("getPrompt(name, args): name must be a non-empty string.");
		const result = await this.request(`prompts/get "${name}"`, (request) => this.parts.client.getPrompt({ name, arguments: args }, request));
		return promptMessages(result.messages, this.name);
	}

	close(): Promise<void> {
		this.closing ??= (async () => {
			this.parts.options.signal?.removeEventListener("abort", this.onAbort);
			// Best effort: a server that is already gone cannot end its session.
			await this.parts.terminate?.().catch(() => {});
			await this.parts.client.close().catch(() => {});
		})();
		return this.closing;
	}

	/** Runs one request with the connection's timeout; a failure is worded by `failure`. */
	private async request<T>(what: string, run: (request: RequestOptions) => Promise<T>, signal?: AbortSignal): Promise<T> {
		if (this.closing) throw new Error(`MCP server "${this.name}": the connection is closed; ${what} was not sent.`);
		try {
			return await run({ timeout: this.parts.timeoutMs, resetTimeoutOnProgress: true, signal });
		} catch (error) {
			// An abort is the caller's own doing (the SDK has sent notifications/cancelled): its reason goes on unchanged.
			if (signal?.aborted) throw error;
			throw this.parts.failure(error, what);
		}
	}

	/** Every page of a listing, following `nextCursor`. */
	private listAll<T>(what: string, page: (cursor: string | undefined, request: RequestOptions) => Promise<{ items: T[]; nextCursor?: string | undefined }>): Promise<T[]> {
		return this.request(what, async (request) => {
			const items: T[] = [];
			const seen = new Set<string>();
			let cursor: string | undefined;
			do {
				const result = await page(cursor, request);
				items.push(...result.items);
				cursor = result.nextCursor;
				// A server that hands out the same cursor again would page forever.
				if (cursor !== undefined && seen.has(cursor)) throw new Error(`the server repeated the page cursor ${JSON.stringify(cursor)}`);
				if (cursor !== undefined) seen.add(cursor);
			} while (cursor !== undefined);
			return items;
		});
	}

	/** `list`, forgotten again by `forget` when it fails (a failed listing is not kept), so that the next call retries. */
	private async kept<T>(list: Promise<T>, forget: () => void): Promise<T> {
		try {
			return await list;
		} catch (error) {
			forget();
			throw error;
		}
	}

	private listenForChanges(): void {
		this.parts.changes.listener = (kind) => {
			if (kind === "tools") this.toolList = undefined;
			else if (kind === "resources") this.resourceList = undefined;
			else this.promptList = undefined;
			this.parts.options.onListChanged?.(kind);
		};
	}
}

function resourceOf(resource: { uri: string; name: string; title?: string | undefined; description?: string | undefined; mimeType?: string | undefined }): McpResource {
	const item: McpResource = { uri: resource.uri, name: resource.name };
	if (resource.title !== undefined) item.title = resource.title;
	if (resource.description !== undefined) item.description = resource.description;
	if (resource.mimeType !== undefined) item.mimeType = resource.mimeType;
	return item;
}

function promptOf(prompt: { name: string; title?: string | undefined; description?: string | undefined; arguments?: McpPrompt["arguments"] | undefined }): McpPrompt {
	const item: McpPrompt = { name: prompt.name };
	if (prompt.title !== undefined) item.title = prompt.title;
	if (prompt.description !== undefined) item.description = prompt.description;
	if (prompt.arguments !== undefined) item.arguments = prompt.arguments;
	return item;
}
