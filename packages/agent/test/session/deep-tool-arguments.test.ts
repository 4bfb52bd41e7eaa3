import { readFileSync } from "node:fs";
import { type Model, Type } from "@pi/ai";
import { type ReplayServer, sseResponse, startReplayServer } from "@pi/ai/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, type AgentTool } from "../../src/index.js";
import { openSessionFile } from "../../src/node/index.js";
import { tempSessionPath } from "./file-helpers.js";

/**
 * Issue 25, item 7: a model that streams tool arguments 100,000 levels deep. Before the bound,
 * the incremental parser took them and `JSON.stringify` failed later: the session append with
 * "Maximum call stack size exceeded". Now the call fails as a tool-call error naming the bound.
 */

let provider: ReplayServer;
beforeAll(async () => {
	provider = await startReplayServer();
});
afterAll(() => provider.close());

const levels = 100_000;
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => `data: ${JSON.stringify({ id: "c1", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const deepCall = [
	chunk({ tool_calls: [{ index: 0, id: "call_1", function: { name: "store", arguments: '{"value":' } }] }),
	chunk({ tool_calls: [{ index: 0, function: { arguments: "[".repeat(levels) } }] }),
	chunk({ tool_calls: [{ index: 0, function: { arguments: `${"]".repeat(levels)}}` } }] }, "tool_calls"),
	"data: [DONE]\n\n",
].join("");
const finalAnswer = [chunk({ content: "Sorry." }), chunk({}, "stop"), "data: [DONE]\n\n"].join("");

describe("deep tool arguments", () => {
	it("end as a tool-call error naming the bound, and the session keeps every message on disk", async () => {
		provider.reset();
		provider.enqueue(sseResponse(deepCall), sseResponse(finalAnswer));
		const model: Model<"openai-completions"> = {
			id: "gpt-4o-mini", name: "x", api: "openai-completions", provider: "openai", baseUrl: `${provider.url}/v1`,
			reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128_000, maxTokens: 1000,
		};
		let runs = 0;
		const store: AgentTool = { name: "store", label: "store", description: "Stores a value.", parameters: Type.Object({ value: Type.Unknown() }), execute: async () => ({ content: [{ type: "text", text: String(++runs) }], details: {} }) };
		const path = tempSessionPath();
		const session = await openSessionFile(path);
		const agent = new Agent({ session, initialState: { model, tools: [store] }, getApiKey: () => "sk-test-key-123456" });
		await agent.prompt("Store something deep.");
		expect(runs).toBe(0);
		const roles = agent.state.messages.map((message) => message.role);
		expect(roles).toEqual(["user", "assistant", "toolResult", "assistant"]);
		const result = agent.state.messages[2] as { isError: boolean; content: { text: string }[] };
		expect(result.isError).toBe(true);
		expect(result.content[0]?.text).toContain("nesting deeper than 256 levels (maxDepth)");
		await session.close();
		const lines = readFileSync(path, "utf8").trim().split("\n").map((line) => JSON.parse(line) as { type: string });
		expect(lines.filter((line) => line.type === "message")).toHaveLength(4);
	});
});
