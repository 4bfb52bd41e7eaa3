/**
 * A throw from every place the agent calls into app code, synchronously and asynchronously, over a
 * real provider stream: streamFn, convertToLlm, transformContext, getApiKey, beforeToolCall,
 * afterToolCall, a tool's execute, a listener of tool progress (onUpdate) and listeners of other
 * events. Each run ends normally with agent_end; the failure shows as an error reply naming the
 * place; messages queued during the run are not lost; the agent stays usable.
 */
import { streamSimple } from "@pi/ai";
import { type ReplayServer, startReplayServer } from "@pi/ai/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type AgentEvent, type AgentOptions, defaultConvertToLlm } from "../../src/index.js";
import { echoTool, expectNoQueuedMessageLost, expectWellFormedRuns, serverAgent, textReply, toolReply, user } from "./harness.js";

type Kind = "sync" | "async";

/** Fails the first time it is called (the way `kind` says), then does what `then` does. */
function failOnce<A extends unknown[], R>(kind: Kind, then: (...args: A) => R): (...args: A) => R {
	let failed = false;
	return (...args: A): R => {
		if (!failed) {
			failed = true;
			if (kind === "sync") throw new Error("boom");
			return Promise.reject(new Error("boom")) as R;
		}
		return then(...args);
	};
}

interface Site {
	name: string;
	/** How the agent names it in the error reply; `undefined` when the run goes on (a tool's throw). */
	reported: string | undefined;
	setup(kind: Kind): { options?: AgentOptions; tool?: ReturnType<typeof echoTool>; failOnEvent?: (event: AgentEvent) => boolean };
}

const SITES: Site[] = [
	{ name: "streamFn", reported: "streamFn", setup: (kind) => ({ options: { streamFn: failOnce(kind, streamSimple) } }) },
	{ name: "convertToLlm", reported: "convertToLlm", setup: (kind) => ({ options: { convertToLlm: failOnce(kind, defaultConvertToLlm) } }) },
	{ name: "transformContext", reported: "transformContext", setup: (kind) => ({ options: { transformContext: failOnce(kind, async (messages) => messages) } }) },
	{ name: "getApiKey", reported: "getApiKey", setup: (kind) => ({ options: { getApiKey: failOnce(kind, () => "sk-ant-RELIABILITY-agent-key-4e1b9d") } }) },
	{ name: "beforeToolCall", reported: "beforeToolCall", setup: (kind) => ({ options: { beforeToolCall: failOnce(kind, async () => undefined) } }) },
	{ name: "afterToolCall", reported: "afterToolCall", setup: (kind) => ({ options: { afterToolCall: failOnce(kind, async () => undefined) } }) },
	{
		name: "a tool's execute",
		reported: undefined,
		setup: (kind) => ({
			tool: echoTool(
				failOnce(kind, () => {
					/* later calls succeed */
				}),
			),
		}),
	},
	{ name: "onUpdate (a listener of tool progress)", reported: "event listener", setup: () => ({ failOnEvent: (event) => event.type === "tool_execution_update" }) },
	{ name: "a listener, mid-stream", reported: "event listener", setup: () => ({ failOnEvent: (event) => event.type === "message_update" }) },
	{ name: "a listener, at a tool's end", reported: "event listener", setup: () => ({ failOnEvent: (event) => event.type === "tool_execution_end" }) },
	{ name: "a listener, at turn_end", reported: "event listener", setup: () => ({ failOnEvent: (event) => event.type === "turn_end" }) },
];

let server: ReplayServer;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(async () => {
	server = await startReplayServer();
	process.on("unhandledRejection", onUnhandled);
});
afterEach(() => server.reset());
afterAll(async () => {
	await server.close();
	await new Promise((resolve) => setTimeout(resolve, 30));
	process.off("unhandledRejection", onUnhandled);
	expect(unhandled).toEqual([]);
});

describe.each(["sync", "async"] as const)("a %s throw", (kind) => {
	it.each(SITES)("from $name: the run ends with agent_end, nothing queued is lost", async (site) => {
		const { options, tool, failOnEvent } = site.setup(kind);
		const { agent, events } = serverAgent(server, options, [tool ?? echoTool()]);
		let failed = false;
		let queued = false;
		agent.subscribe((event) => {
			// Messages sent while the agent works: one to steer, one to follow up.
			if (event.type === "turn_start" && !queued) {
				queued = true;
				agent.steer(user("steered during the run"));
				agent.followUp(user("followed up during the run"));
			}
			if (failOnEvent?.(event) && !failed) {
				failed = true;
				if (kind === "sync") throw new Error("boom");
				return Promise.reject(new Error("boom"));
			}
		});
		server.enqueue(toolReply("toolu_rel_1", "echo", ['{"te', 'xt": "hi"}']), textReply("done"), textReply("more"), textReply("even more"));

		await agent.prompt("go"); // resolves, never rejects
		expect(agent.state.isStreaming).toBe(false);
		expectWellFormedRuns(events);
		expect(events.filter((event) => event.type === "agent_end")).toHaveLength(1);
		const assistants = agent.state.messages.filter((message) => message.role === "assistant");
		if (site.reported) {
			const failure = assistants.find((message) => message.stopReason === "error");
			expect(failure?.errorMessage).toBe(`${site.reported} failed: boom`);
			expect(agent.state.errorMessage).toBe(`${site.reported} failed: boom`);
		} else {
			// A throwing tool is the model's business: an error result, and the run goes on.
			const result = agent.state.messages.find((message) => message.role === "toolResult");
			expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: "boom" }] });
			expect(assistants.every((message) => message.stopReason !== "error")).toBe(true);
		}

		await expectNoQueuedMessageLost(agent, server, ["steered during the run", "followed up during the run"]);
		expectWellFormedRuns(events);
		// Usable afterwards: a new prompt runs to a normal reply.
		server.reset();
		server.enqueue(textReply("fine again"));
		await agent.prompt("still there?");
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop", content: [{ type: "text", text: "fine again" }] });
	});
});
