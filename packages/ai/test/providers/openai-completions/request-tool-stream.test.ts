import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import type { Model, Tool } from "../../../src/types.js";
import { ask, capture, completionsModel } from "./helpers.js";

/** `compat.zaiToolStream`: `tool_stream: true` with tools, so that z.ai streams tool-call arguments. */

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

/** z.ai's coding endpoint is no detected server: it is `generic` here. */
const ZAI = completionsModel({ id: "glm-4.6", provider: "zai", baseUrl: "https://api.z.ai/api/coding/paas/v4", reasoning: false, input: ["text"] });
const TOOLS = [{ name: "now", description: "Current time", parameters: { type: "object", properties: {} } }] as unknown as Tool[];

const body = async (model: Model<"openai-completions">, tools?: Tool[]) =>
	(await capture(server, model, ask("What time is it?", tools ? { tools } : {}), { apiKey: "sk-test" })).request.json;

describe("compat.zaiToolStream", () => {
	it("true: the body asks for streamed tool calls next to the tools", async () => {
		expect(await body({ ...ZAI, compat: { zaiToolStream: true } }, TOOLS)).toEqual({
			model: "glm-4.6",
			messages: [{ role: "user", content: "What time is it?" }],
			stream: true,
			stream_options: { include_usage: true },
			tools: [{ type: "function", function: { name: "now", description: "Current time", parameters: { type: "object", properties: {} } } }],
			tool_stream: true,
		});
	});

	it("true without tools: nothing to stream, so no tool_stream", async () => {
		expect(await body({ ...ZAI, compat: { zaiToolStream: true } })).not.toHaveProperty("tool_stream");
	});

	it("unset: no tool_stream", async () => {
		expect(await body(ZAI, TOOLS)).not.toHaveProperty("tool_stream");
	});
});
