/**
 * Sampling: a server that asks the client for a completion (`sampling/createMessage`) is answered
 * with the app's model when `sampling: { model, streamFn? }` is given; otherwise the client does
 * not advertise sampling (and server-everything then offers no sampling tool).
 */
import { type AssistantMessage, fauxAssistantMessage, registerFauxProvider, streamSimple } from "@pi/ai";
import type { StreamFn } from "@pi/agent-core";
import { describe, expect, it } from "vitest";
import { connectMcp } from "../src/index.js";
import { runScripted, toolEnds } from "./helpers/scripted-agent.js";
import { everythingStdio } from "./helpers/servers.js";

describe("sampling/createMessage", () => {
	it("is answered with the app's model, given the server's system prompt, message and limits", async () => {
		const sampler = registerFauxProvider({ api: "faux-sampler", provider: "sampler", models: [{ id: "sampler-1" }] });
		const asked: { systemPrompt?: string; text: string; maxTokens?: number; temperature?: number }[] = [];
		sampler.setResponses([
			(context, options) => {
				const first = context.messages[0];
				const text = first?.role === "user" && Array.isArray(first.content) && first.content[0]?.type === "text" ? first.content[0].text : "";
				asked.push({ systemPrompt: context.systemPrompt, text, maxTokens: options?.maxTokens, temperature: options?.temperature });
				return fauxAssistantMessage("Paris, of course.");
			},
		]);
		const streamed: string[] = [];
		const streamFn: StreamFn = (model, context, options) => {
			streamed.push(model.id);
			return streamSimple(model, context, options);
		};
		const server = await connectMcp({ ...everythingStdio(), sampling: { model: sampler.getModel(), streamFn } });
		try {
			const tools = await server.tools({ include: ["trigger-sampling-request"] });
			const { events, run } = runScripted(tools, [{ name: "trigger-sampling-request", arguments: { prompt: "Capital of France?", maxTokens: 42 } }]);
			await run;
			expect(asked).toEqual([{ systemPrompt: "You are a helpful test server.", text: "Resource trigger-sampling-request context: Capital of France?", maxTokens: 42, temperature: 0.7 }]);
			expect(streamed).toEqual(["sampler-1"]);
			const [end] = toolEnds(events);
			expect(end?.isError).toBe(false);
			const answer = JSON.parse(end!.text.replace(/^LLM sampling result: \n/, "")) as unknown;
			expect(answer).toEqual({ role: "assistant", model: "sampler-1", content: { type: "text", text: "Paris, of course." }, stopReason: "endTurn" });
		} finally {
			await server.close();
			sampler.unregister();
		}
	});

	it("a model that fails sends the server an error, which comes back as the tool's error result", async () => {
		const sampler = registerFauxProvider({ api: "faux-sampler-2", provider: "sampler", models: [{ id: "sampler-2" }] });
		const failed: AssistantMessage = { ...fauxAssistantMessage(""), stopReason: "error", errorMessage: "rate limited (429)" };
		sampler.setResponses([failed]);
		const server = await connectMcp({ ...everythingStdio(), sampling: { model: sampler.getModel() } });
		try {
			const tools = await server.tools({ include: ["trigger-sampling-request"] });
			const { events, run } = runScripted(tools, [{ name: "trigger-sampling-request", arguments: { prompt: "Hi" } }]);
			await run;
			const [end] = toolEnds(events);
			expect(end?.isError).toBe(true);
			expect(end?.text).toContain("the app's model sampler-2 could not answer the sampling request: rate limited (429)");
			expect(events.at(-1)?.type).toBe("agent_end");
		} finally {
			await server.close();
			sampler.unregister();
		}
	});

	it("without `sampling` the capability is not advertised: the server offers no sampling tool", async () => {
		const server = await connectMcp(everythingStdio());
		try {
			const names = (await server.tools()).map((tool) => tool.name);
			expect(names).toContain("echo");
			expect(names).not.toContain("trigger-sampling-request");
		} finally {
			await server.close();
		}
	});
});
