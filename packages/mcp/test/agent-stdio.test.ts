/**
 * server-everything over stdio, its tools called through an `Agent` on the scripted model: the
 * arguments the model gives go to the server, and what the server answers (text, image, links,
 * embedded resources, structured content, errors) comes back as the tool results.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMcp, type McpConnection } from "../src/index.js";
import { everythingStdio } from "./helpers/servers.js";
import { runScripted, toolEnds } from "./helpers/scripted-agent.js";

let server: McpConnection;
beforeAll(async () => {
	server = await connectMcp({ ...everythingStdio(), name: "everything" });
});
afterAll(() => server.close());

describe("server-everything over stdio", () => {
	it("answers initialize: serverInfo and capabilities", () => {
		expect(server.serverInfo).toMatchObject({ name: "mcp-servers/everything", title: "Everything Reference Server", version: "2.0.0" });
		expect(server.capabilities.tools).toEqual({ listChanged: true });
		expect(server.capabilities.resources).toMatchObject({ subscribe: true });
	});

	it("gives one agent tool per server tool, with the server's schema unchanged and the title as label", async () => {
		const tools = await server.tools();
		const sum = tools.find((tool) => tool.name === "get-sum");
		expect(sum?.label).toBe("Get Sum Tool");
		expect(sum?.description).toMatch(/sum/i);
		expect(sum?.parameters).toEqual({
			type: "object",
			properties: { a: { type: "number", description: "First number" }, b: { type: "number", description: "Second number" } },
			required: ["a", "b"],
			$schema: "http://json-schema.org/draft-07/schema#",
		});
	});

	it("prefix, include and exclude pick and name the tools", async () => {
		const picked = await server.tools({ prefix: "everything_", include: ["echo", "get-sum", "get-env"], exclude: ["get-env"] });
		expect(picked.map((tool) => tool.name)).toEqual(["everything_echo", "everything_get-sum"]);
		await expect(server.tools({ include: ["get-summ"] })).rejects.toThrow(
			/tools\(\{ include \}\) of MCP server "everything" names "get-summ", which the server does not have\. Its tools: "echo",/,
		);
	});

	it("runs the tools the model calls, through an Agent, and maps every kind of content", async () => {
		const tools = await server.tools({ prefix: "e_" });
		const { events, run } = runScripted(tools, [
			{ name: "e_get-sum", arguments: { a: 2, b: 40 } },
			{ name: "e_get-tiny-image", arguments: {} },
			{ name: "e_get-resource-links", arguments: { count: 2 } },
			{ name: "e_get-resource-reference", arguments: { resourceType: "Text", resourceId: 3 } },
			{ name: "e_get-structured-content", arguments: { location: "Chicago" } },
		]);
		await run;
		const ends = toolEnds(events);
		expect(ends.map((end) => [end.name, end.isError])).toEqual([
			["e_get-sum", false],
			["e_get-tiny-image", false],
			["e_get-resource-links", false],
			["e_get-resource-reference", false],
			["e_get-structured-content", false],
		]);
		expect(ends[0]?.text).toBe("The sum of 2 and 40 is 42.");
		expect(ends[1]?.text).toMatch(/\[image\]/);
		const image = events.find((event) => event.type === "tool_execution_end" && event.toolName === "e_get-tiny-image");
		expect(image?.type === "tool_execution_end" && image.result.content.find((block: { type: string }) => block.type === "image")).toMatchObject({ type: "image", mimeType: "image/png" });
		expect(ends[2]?.text).toContain('Resource demo://resource/dynamic/text/2 "Text Resource 2" (text/plain)');
		expect(ends[3]?.text).toMatch(/Resource demo:\/\/resource\/dynamic\/text\/3 \(text\/plain\):\nResource 3: This is a plaintext resource/);
		expect(ends[4]?.details).toMatchObject({ conditions: expect.any(String), temperature: expect.any(Number) });
		expect(events.at(-1)?.type).toBe("agent_end");
	});

	it("an isError result becomes an error tool result carrying the server's text, and the run goes on", async () => {
		const tools = await server.tools({ include: ["gzip-file-as-resource", "echo"] });
		const { events, run } = runScripted(tools, [
			{ name: "gzip-file-as-resource", arguments: { name: "x.gz", data: "ftp://127.0.0.1/file" } },
			{ name: "echo", arguments: { message: "still here" } },
		]);
		await run;
		expect(toolEnds(events).map((end) => [end.name, end.isError, end.text])).toEqual([
			["gzip-file-as-resource", true, expect.stringContaining("Unsupported URL protocol for ftp://127.0.0.1/file")],
			["echo", false, "Echo: still here"],
		]);
	});

	it("calls in flight at once each get their own answer (the agent runs a reply's tool calls in parallel)", async () => {
		const tools = await server.tools({ include: ["get-sum", "echo", "trigger-long-running-operation"] });
		const byName = new Map(tools.map((tool) => [tool.name, tool]));
		const results = await Promise.all([
			byName.get("trigger-long-running-operation")!.execute("c1", { duration: 0.3, steps: 1 }),
			byName.get("get-sum")!.execute("c2", { a: 5, b: 6 }),
			byName.get("echo")!.execute("c3", { message: "third" }),
		]);
		expect(results.map((result) => result.content[0])).toEqual([
			{ type: "text", text: "Long running operation completed. Duration: 0.3 seconds, Steps: 1." },
			{ type: "text", text: "The sum of 5 and 6 is 11." },
			{ type: "text", text: "Echo: third" },
		]);
	});

	it("arguments that break the server's schema are refused by the loop before the server sees them", async () => {
		const tools = await server.tools({ include: ["get-sum"] });
		const { events, run } = runScripted(tools, [{ name: "get-sum", arguments: { a: "two", b: 3 } }]);
		await run;
		const [end] = toolEnds(events);
		expect(end?.isError).toBe(true);
		expect(end?.text).toBe('Invalid arguments for tool "get-sum":\n  /a: expected number');
	});
});
