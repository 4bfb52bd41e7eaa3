/**
 * Resources and prompts of server-everything over stdio: listing (every page), reading, and a
 * prompt filled in and passed to `agent.prompt()`.
 */
import { fauxAssistantMessage, registerFauxProvider } from "@pi/ai";
import { Agent } from "@pi/agent-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMcp, type McpConnection } from "../src/index.js";
import { everythingStdio } from "./helpers/servers.js";

let server: McpConnection;
beforeAll(async () => {
	server = await connectMcp({ ...everythingStdio(), name: "everything" });
});
afterAll(() => server.close());

describe("resources", () => {
	it("resources() lists every page of the server's resources", async () => {
		const resources = await server.resources();
		expect(resources).toContainEqual({
			uri: "demo://resource/static/document/features.md",
			name: "features.md",
			description: "Static document file exposed from /docs: features.md",
			mimeType: "text/markdown",
		});
		expect(new Set(resources.map((resource) => resource.uri)).size).toBe(resources.length);
	});

	it("readResource(uri) gives text contents, and base64 blobs for binary ones", async () => {
		const [text] = await server.readResource("demo://resource/static/document/features.md");
		expect(text).toMatchObject({ uri: "demo://resource/static/document/features.md", mimeType: "text/markdown" });
		expect(text?.text).toContain("# Everything Server - Features");
		const [blob] = await server.readResource("demo://resource/dynamic/blob/1");
		expect(blob?.text).toBeUndefined();
		expect(Buffer.from(blob?.blob ?? "", "base64").toString()).toMatch(/Resource 1/);
	});

	it("reading a resource the server does not have rejects, naming the server and the URI", async () => {
		await expect(server.readResource("demo://nothing/here")).rejects.toThrow(/^MCP server "everything" failed resources\/read "demo:\/\/nothing\/here": MCP error -32602: .*Resource demo:\/\/nothing\/here not found$/);
		await expect(server.readResource("")).rejects.toThrow("readResource(uri): uri must be a non-empty string.");
	});
});

describe("prompts", () => {
	it("prompts() lists the prompts with their arguments", async () => {
		const prompts = await server.prompts();
		expect(prompts.find((prompt) => prompt.name === "args-prompt")).toEqual({
			name: "args-prompt",
			title: "Arguments Prompt",
			description: "A prompt with two arguments, one required and one optional",
			arguments: [
				{ name: "city", description: "Name of the city", required: true },
				{ name: "state", required: false },
			],
		});
	});

	it("getPrompt(name, args) gives agent messages that agent.prompt() takes, resources included as text", async () => {
		const messages = await server.getPrompt("resource-prompt", { resourceType: "Text", resourceId: "2" });
		expect(messages.map((message) => message.role)).toEqual(["user", "user"]);
		const faux = registerFauxProvider();
		try {
			let seen = "";
			faux.setResponses([
				(context) => {
					seen = JSON.stringify(context.messages);
					return fauxAssistantMessage("analysed");
				},
			]);
			const agent = new Agent({ initialState: { model: faux.getModel() } });
			await agent.prompt(messages);
			expect(seen).toContain("This prompt includes the Text resource with id: 2");
			expect(seen).toContain("Resource demo://resource/dynamic/text/2 (text/plain):\\nResource 2: This is a plaintext resource");
			expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "analysed" }] });
		} finally {
			faux.unregister();
		}
	});

	it("a missing required argument is the server's error, naming the prompt", async () => {
		await expect(server.getPrompt("args-prompt", {})).rejects.toThrow(/^MCP server "everything" failed prompts\/get "args-prompt": MCP error -32602/);
	});
});
