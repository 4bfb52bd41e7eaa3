import { fauxAssistantMessage } from "@pi/ai";
import { describe, expect, it } from "vitest";
import {
	type AgentMessage,
	compact,
	CompactionError,
	defaultConvertToLlm,
	estimateContextTokens,
	SUMMARY_SECTIONS,
	SUMMARY_SYSTEM_PROMPT,
	TOOL_RESULT_CHARS,
} from "../../src/index.js";
import { scriptedStream, testModel } from "../helpers/scripted-stream.js";
import { assistant, call, chars, result, summary, user } from "./messages.js";

const T100 = chars(400);

/** The text of the one user message of a recorded summary call. */
function promptOf(streamFn: ReturnType<typeof scriptedStream>, call = 0): string {
	const message = streamFn.contexts[call]?.messages[0];
	if (message?.role !== "user" || typeof message.content === "string") throw new Error("no summary prompt recorded");
	return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

function conversation(): AgentMessage[] {
	return [
		user("Port the parser in src/parse.ts to the streaming API; keep the public names."),
		assistant([call("c1", "read_file", { path: "src/parse.ts" })]),
		result("c1", `export function parseConfig(text) { ${chars(600)} }`),
		assistant("I will keep parseConfig and add parseConfigStream."),
		user(T100),
		assistant(T100),
		user("Now the tests."),
		assistant(T100),
	];
}

describe("compact", () => {
	it("asks the model for a structured summary of the part before the cut, and leaves the input alone", async () => {
		const messages = conversation();
		const before = JSON.stringify(messages);
		const streamFn = scriptedStream([fauxAssistantMessage("## Goal\nPort the parser.")]);
		const outcome = await compact(messages, { model: testModel, streamFn, keepRecentTokens: 100, apiKey: "key-for-the-summary-0123" });

		expect(outcome).toEqual({ summary: "## Goal\nPort the parser.", firstKeptIndex: 6, tokensBefore: estimateContextTokens(messages).tokens });
		expect(JSON.stringify(messages)).toBe(before);
		const context = streamFn.contexts[0];
		expect(context?.systemPrompt).toBe(SUMMARY_SYSTEM_PROMPT);
		expect(context?.messages).toHaveLength(1);
		expect(context?.tools).toBeUndefined();
		expect(streamFn.options[0]?.apiKey).toBe("key-for-the-summary-0123");
		expect(streamFn.options[0]?.maxTokens).toBe(testModel.maxTokens);

		const prompt = promptOf(streamFn);
		// The summarised part is in the record, the kept part is not.
		expect(prompt).toContain("[user]\nPort the parser in src/parse.ts");
		expect(prompt).toContain('[assistant calls read_file] {"path":"src/parse.ts"}');
		expect(prompt).toContain("[read_file returned]\nexport function parseConfig");
		expect(prompt).not.toContain("Now the tests.");
		// Every section is asked for, in order.
		const positions = SUMMARY_SECTIONS.map((section) => prompt.indexOf(`## ${section}\n`));
		expect(positions.every((position) => position > 0)).toBe(true);
		expect([...positions].sort((a, b) => a - b)).toEqual(positions);
		expect(prompt).not.toContain("## Current turn");
		expect(prompt).not.toContain("<previous-summary>");
	});

	it("carries a previous summary forward into the next one", async () => {
		const messages: AgentMessage[] = [summary("## Goal\nShip version 2 of the billing service (ticket BILL-42)."), ...conversation()];
		const streamFn = scriptedStream([fauxAssistantMessage("## Goal\nShip v2 (BILL-42); parser ported.")]);
		const outcome = await compact(messages, { model: testModel, streamFn, keepRecentTokens: 100 });
		expect(outcome.firstKeptIndex).toBe(7);
		const prompt = promptOf(streamFn);
		expect(prompt).toContain("<previous-summary>\n## Goal\nShip version 2 of the billing service (ticket BILL-42).\n</previous-summary>");
		expect(prompt).toContain("Merge it into your summary");
		// The old summary is not repeated as part of the record.
		expect(prompt.indexOf("BILL-42")).toBe(prompt.lastIndexOf("BILL-42"));
	});

	it("summarises a split turn in two parts: the history, and the turn's own beginning", async () => {
		const messages: AgentMessage[] = [user("first request"), assistant(T100), user("Rename every Foo to Bar across the repo.")];
		for (let step = 0; step < 10; step++) messages.push(assistant([call(`s${step}`, "edit", { file: `src/f${step}.ts` })]), result(`s${step}`, T100));
		const streamFn = scriptedStream([fauxAssistantMessage("## Goal\n…\n## Current turn\nRenaming.")]);
		const outcome = await compact(messages, { model: testModel, streamFn, keepRecentTokens: 300 });
		expect(messages[outcome.firstKeptIndex]?.role).toBe("assistant");
		const prompt = promptOf(streamFn);
		const history = prompt.slice(prompt.indexOf("<conversation>"), prompt.indexOf("</conversation>"));
		const turn = prompt.slice(prompt.indexOf("<current-turn-beginning>"), prompt.indexOf("</current-turn-beginning>"));
		expect(history).toContain("first request");
		expect(history).not.toContain("Rename every Foo");
		expect(turn).toContain("[user]\nRename every Foo to Bar across the repo.");
		expect(turn).toContain("src/f0.ts");
		expect(prompt).toContain("## Current turn");
	});

	it("adds the custom instructions and cuts long tool results in the record", async () => {
		const messages: AgentMessage[] = [user("go"), assistant([call("big", "grep")]), result("big", `${chars(50_000)}END-MARKER`, "grep"), user(T100), assistant(T100)];
		const streamFn = scriptedStream([fauxAssistantMessage("## Goal\nGrep.")]);
		await compact(messages, { model: testModel, streamFn, keepRecentTokens: 150, customInstructions: "Keep every SQL query verbatim." });
		const prompt = promptOf(streamFn);
		expect(prompt).toContain("Also: Keep every SQL query verbatim.");
		expect(prompt).not.toContain("END-MARKER");
		expect(prompt).toContain(`[${50_010 - TOOL_RESULT_CHARS} more characters]`);
	});

	it("records custom messages the way convertToLlm shows them to the model", async () => {
		const artifact = { role: "artifact", title: "plan.md", body: "Step 1: measure.", timestamp: 1 } as unknown as AgentMessage;
		const messages: AgentMessage[] = [user("plan it"), artifact, assistant(T100), user(T100), assistant(T100)];
		const convertToLlm = (list: AgentMessage[]) =>
			defaultConvertToLlm(list.map((m) => ((m as { role: string }).role === "artifact" ? { role: "user" as const, content: `Artifact plan.md: ${(m as unknown as { body: string }).body}`, timestamp: 1 } : m)));
		const streamFn = scriptedStream([fauxAssistantMessage("## Goal\nPlan.")]);
		await compact(messages, { model: testModel, streamFn, keepRecentTokens: 150, convertToLlm });
		expect(promptOf(streamFn)).toContain("Artifact plan.md: Step 1: measure.");
	});

	it("rejects with kind failed when the summary call fails, naming the provider's error", async () => {
		const streamFn = scriptedStream([fauxAssistantMessage("", { stopReason: "error", errorMessage: "503 overloaded" })]);
		const failure = await compact(conversation(), { model: testModel, streamFn, keepRecentTokens: 100 }).catch((error: unknown) => error);
		expect(failure).toBeInstanceOf(CompactionError);
		expect(failure).toMatchObject({ kind: "failed", message: "the summary call failed: 503 overloaded" });
	});

	it("rejects with kind failed when the model writes no text", async () => {
		const streamFn = scriptedStream([fauxAssistantMessage([{ type: "thinking", thinking: "hmm" }])]);
		await expect(compact(conversation(), { model: testModel, streamFn, keepRecentTokens: 100 })).rejects.toMatchObject({ kind: "failed" });
	});

	it("rejects with kind aborted when its signal aborts mid-call", async () => {
		const controller = new AbortController();
		const streamFn = scriptedStream([{ stall: "## Goal\nhalf a summ", onStalled: () => controller.abort() }]);
		await expect(compact(conversation(), { model: testModel, streamFn, keepRecentTokens: 100, signal: controller.signal })).rejects.toMatchObject({ kind: "aborted" });
	});

	it("rejects with kind nothing-to-compact when the transcript fits the budget, without a call", async () => {
		const streamFn = scriptedStream([]);
		await expect(compact(conversation(), { model: testModel, streamFn, keepRecentTokens: 1_000_000 })).rejects.toMatchObject({ kind: "nothing-to-compact" });
		expect(streamFn.contexts).toHaveLength(0);
	});
});
