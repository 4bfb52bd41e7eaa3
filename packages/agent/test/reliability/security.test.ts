/**
 * Security of tool calls end to end: arguments streamed by a real provider (anthropic-messages over
 * the replay server) into the agent. Keys named `__proto__`, `constructor` and `prototype` stay
 * plain data and cannot pollute any prototype or smuggle a property past validation; arguments
 * that do not validate never reach `execute`.
 */
import { type ReplayServer, startReplayServer } from "@pi/ai/testing";
import { Type } from "typebox";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AgentTool } from "../../src/index.js";
import { expectWellFormedRuns, serverAgent, textReply, toolReply } from "./harness.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterEach(() => server.reset());
afterAll(() => server.close());

/** A tool that records the arguments `execute` received. */
function recordingTool(parameters: ReturnType<typeof Type.Object>): AgentTool<any> & { received: unknown[] } {
	const received: unknown[] = [];
	return {
		name: "write_file",
		label: "Write file",
		description: "Writes a file.",
		parameters,
		received,
		execute: async (_id, args) => {
			received.push(args);
			return { content: [{ type: "text", text: "written" }], details: {} };
		},
	};
}

function expectPrototypesClean(): void {
	const probe: Record<string, unknown> = {};
	for (const name of ["isAdmin", "polluted", "path"]) {
		expect(probe[name], name).toBeUndefined();
		expect(Object.prototype).not.toHaveProperty(name);
	}
}

/** Streams one call of `write_file` with these argument fragments, then a text reply. */
async function runCall(tool: AgentTool<any>, fragments: string[]) {
	const { agent, events } = serverAgent(server, {}, [tool]);
	server.enqueue(toolReply("toolu_sec_1", "write_file", fragments), textReply("ok"));
	await agent.prompt("go");
	expectWellFormedRuns(events);
	const result = agent.state.messages.find((message) => message.role === "toolResult");
	if (result?.role !== "toolResult") throw new Error("no tool result");
	return { agent, result };
}

const HOSTILE = ['{"path": "a.txt", "__pro', 'to__": {"isAdmin": true}, "constructor": {"prototype": {"polluted": true}}, "prototype": {"polluted": true}}'];

describe("tool arguments through a real provider and the agent", () => {
	it("__proto__, constructor and prototype keys reach execute as plain own data, polluting nothing", async () => {
		const tool = recordingTool(Type.Object({ path: Type.String() }));
		const { result } = await runCall(tool, HOSTILE);
		expect(result.isError).toBe(false);
		expect(tool.received).toHaveLength(1);
		const args = tool.received[0] as Record<string, unknown>;
		expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
		expect(args.isAdmin).toBeUndefined();
		expect(Object.getOwnPropertyDescriptor(args, "__proto__")?.value).toEqual({ isAdmin: true });
		expect(args).toEqual(JSON.parse(HOSTILE.join("")));
		expectPrototypesClean();
	});

	it("a required property offered only through __proto__ does not validate; execute never runs", async () => {
		const tool = recordingTool(Type.Object({ path: Type.String() }));
		const { result } = await runCall(tool, ['{"__proto__": {"path": "/etc/passwd"}}']);
		expect(tool.received).toEqual([]);
		expect(result.isError).toBe(true);
		expect(result.content).toEqual([{ type: "text", text: expect.stringMatching(/Invalid arguments for tool "write_file"[\s\S]*"path"/) }]);
		expectPrototypesClean();
	});

	it("with additionalProperties: false, a __proto__ key is an unexpected property; execute never runs", async () => {
		const tool = recordingTool(Type.Object({ path: Type.String() }, { additionalProperties: false }));
		const { result } = await runCall(tool, HOSTILE);
		expect(tool.received).toEqual([]);
		expect(result.isError).toBe(true);
		expect(JSON.stringify(result.content)).toContain("__proto__");
		expectPrototypesClean();
	});

	it.each([
		["a wrong type", ['{"path": 42}']],
		["a missing property", ['{"file": "a.txt"}']],
		["not an object at all", ['["a.txt"]']],
	])("%s: execute never runs, the model is told why", async (_name, fragments) => {
		const tool = recordingTool(Type.Object({ path: Type.String() }));
		const { result } = await runCall(tool, fragments);
		expect(tool.received).toEqual([]);
		expect(result.isError).toBe(true);
		expect((result.content[0] as { text: string }).text).toMatch(/Invalid arguments for tool "write_file"/);
	});
});
