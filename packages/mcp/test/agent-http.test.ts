/**
 * The same server-everything over Streamable HTTP on 127.0.0.1 (its own `streamableHttp` entry
 * point), and over the older HTTP+SSE transport (its `sse` entry point), which `connectMcp`
 * falls back to: tools through an `Agent`, progress, resources, prompts, and `close()` ending
 * the HTTP session.
 */
import { fauxAssistantMessage, registerFauxProvider } from "@pi/ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMcp, type McpConnection } from "../src/index.js";
import { runScripted, toolEnds } from "./helpers/scripted-agent.js";
import { type EverythingHttp, startEverythingHttp } from "./helpers/servers.js";

describe("Streamable HTTP", () => {
	let http: EverythingHttp;
	let server: McpConnection;
	beforeAll(async () => {
		http = await startEverythingHttp("streamableHttp");
		server = await connectMcp({ url: http.url, headers: { "X-Test": "1" } });
	});
	afterAll(async () => {
		await server?.close();
		await http?.stop();
	});

	it("connects, named after the server's own name, with no process id", () => {
		expect(server.name).toBe("mcp-servers/everything");
		expect(server.serverInfo.name).toBe("mcp-servers/everything");
		expect(server.pid).toBeUndefined();
	});

	it("runs tools through an Agent, with progress as tool_execution_update", async () => {
		const tools = await server.tools({ prefix: "remote_", include: ["get-sum", "trigger-long-running-operation"] });
		const { events, run } = runScripted(tools, [
			{ name: "remote_get-sum", arguments: { a: 1, b: 2 } },
			{ name: "remote_trigger-long-running-operation", arguments: { duration: 0.2, steps: 2 } },
		]);
		await run;
		expect(toolEnds(events).map((end) => [end.name, end.isError, end.text])).toEqual([
			["remote_get-sum", false, "The sum of 1 and 2 is 3."],
			["remote_trigger-long-running-operation", false, "Long running operation completed. Duration: 0.2 seconds, Steps: 2."],
		]);
		const updates = events.flatMap((event) => (event.type === "tool_execution_update" ? [event.partialResult.details] : []));
		expect(updates).toEqual([
			{ progress: 1, total: 2 },
			{ progress: 2, total: 2 },
		]);
	});

	it("aborting a call over HTTP gives the aborted result, and the session stays usable", async () => {
		const tools = await server.tools({ include: ["trigger-long-running-operation", "echo"] });
		const { events, run } = runScripted(tools, [{ name: "trigger-long-running-operation", arguments: { duration: 30, steps: 300 } }], (event, agent) => {
			if (event.type === "tool_execution_update") agent.abort();
		});
		await run;
		expect(toolEnds(events).map((end) => end.text)).toEqual(["Tool execution was aborted."]);
		const echo = tools.find((tool) => tool.name === "echo")!;
		await expect(echo.execute("after", { message: "still up" })).resolves.toMatchObject({ content: [{ type: "text", text: "Echo: still up" }] });
	});

	it("answers the server's sampling requests over HTTP with the app's model", async () => {
		const sampler = registerFauxProvider({ api: "faux-http-sampler", provider: "sampler", models: [{ id: "http-sampler" }] });
		sampler.setResponses([fauxAssistantMessage("sampled over HTTP")]);
		const sampling = await connectMcp({ url: http.url, sampling: { model: sampler.getModel() } });
		try {
			const tools = await sampling.tools({ include: ["trigger-sampling-request"] });
			const { events, run } = runScripted(tools, [{ name: "trigger-sampling-request", arguments: { prompt: "Hi" } }]);
			await run;
			const [end] = toolEnds(events);
			expect(end?.isError).toBe(false);
			expect(end?.text).toContain('"text": "sampled over HTTP"');
		} finally {
			await sampling.close();
			sampler.unregister();
		}
	});

	it("reads resources and prompts", async () => {
		expect((await server.resources()).some((resource) => resource.uri === "demo://resource/static/document/features.md")).toBe(true);
		const [contents] = await server.readResource("demo://resource/dynamic/text/4");
		expect(contents?.text).toMatch(/^Resource 4: This is a plaintext resource/);
		const messages = await server.getPrompt("args-prompt", { city: "Lyon" });
		expect(messages).toMatchObject([{ role: "user", content: [{ type: "text", text: expect.stringContaining("Lyon") }] }]);
	});

	it("close() ends the HTTP session (a DELETE), and is idempotent", async () => {
		const own = await connectMcp({ url: http.url });
		await own.close();
		await own.close();
		expect(http.output()).toMatch(/Received session termination request for session/);
		await expect(own.tools()).rejects.toThrow(`MCP server "${own.name}": the connection is closed; tools/list was not sent.`);
	});
});

describe("HTTP+SSE fallback", () => {
	let http: EverythingHttp;
	beforeAll(async () => {
		http = await startEverythingHttp("sse");
	});
	afterAll(() => http?.stop());

	it("a server that only speaks HTTP+SSE answers the Streamable HTTP POST with an error, and is then reached over SSE", async () => {
		const server = await connectMcp({ url: http.url, name: "legacy" });
		try {
			expect(server.serverInfo.name).toBe("mcp-servers/everything");
			const tools = await server.tools({ include: ["echo"] });
			const { events, run } = runScripted(tools, [{ name: "echo", arguments: { message: "over sse" } }]);
			await run;
			expect(toolEnds(events).map((end) => end.text)).toEqual(["Echo: over sse"]);
		} finally {
			await server.close();
		}
	});
});

describe("a Streamable HTTP server that dies mid-call", () => {
	it("the tool result says the server was lost (its stream could not be reopened), without waiting for timeoutMs", async () => {
		const http = await startEverythingHttp("streamableHttp");
		const server = await connectMcp({ url: http.url, name: "remote" });
		try {
			const tools = await server.tools({ include: ["trigger-long-running-operation"] });
			const { events, run } = runScripted(tools, [{ name: "trigger-long-running-operation", arguments: { duration: 30, steps: 300 } }], (event) => {
				if (event.type === "tool_execution_update" && (event.partialResult.details as { progress: number }).progress === 1) void http.stop();
			});
			await run;
			expect(toolEnds(events).map((end) => [end.isError, end.text])).toEqual([
				[
					true,
					`MCP server "remote" at ${http.url} was lost during tools/call "trigger-long-running-operation": its event stream broke and could not be reopened (Maximum reconnection attempts (2) exceeded.).`,
				],
			]);
			expect(events.at(-1)?.type).toBe("agent_end");
		} finally {
			await server.close();
			await http.stop();
		}
	});
});
