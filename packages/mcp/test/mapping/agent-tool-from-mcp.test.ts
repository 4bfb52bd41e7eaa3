/** A server tool → an agent tool, with a plain function standing in for the connection. */
import { describe, expect, it } from "vitest";
import { agentToolFromMcp, type McpToolCaller } from "../../src/index.js";

const schema = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };

describe("agentToolFromMcp", () => {
	it("names the tool prefix + name, keeps the description and the very schema object, labels it by title", () => {
		const tool = agentToolFromMcp({ name: "read", title: "Read a file", description: "Reads", inputSchema: schema as never }, "fs_", async () => ({ content: [] }));
		expect(tool).toMatchObject({ name: "fs_read", label: "Read a file", description: "Reads" });
		expect(tool.parameters).toBe(schema);
		expect(agentToolFromMcp({ name: "x", inputSchema: { type: "object" } }, "", async () => ({ content: [] })).label).toBe("x");
		expect(agentToolFromMcp({ name: "y", annotations: { title: "Why" }, inputSchema: { type: "object" } }, "", async () => ({ content: [] })).label).toBe("Why");
	});

	it("execute calls the server's own name with the arguments and signal, and forwards progress as updates", async () => {
		const calls: unknown[] = [];
		const callTool: McpToolCaller = async (name, args, signal, onProgress) => {
			calls.push({ name, args, aborted: signal?.aborted });
			onProgress({ progress: 1, total: 2 });
			return { content: [{ type: "text", text: "ok" }] };
		};
		const tool = agentToolFromMcp({ name: "read", inputSchema: schema as never }, "fs_", callTool);
		const updates: unknown[] = [];
		const result = await tool.execute("call-1", { path: "/a" }, new AbortController().signal, (update) => updates.push(update));
		expect(calls).toEqual([{ name: "read", args: { path: "/a" }, aborted: false }]);
		expect(updates).toEqual([{ content: [{ type: "text", text: "progress 1/2" }], details: { progress: 1, total: 2 } }]);
		expect(result).toEqual({ content: [{ type: "text", text: "ok" }], details: undefined });
	});
});
