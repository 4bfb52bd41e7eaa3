// The test page's script, bundled by esbuild for the browser. It streams from the replay server
// (another origin, named in the page's query string) and writes each outcome into the DOM, where
// the Playwright test reads it. Nothing here knows it is under test.
import { Agent, type AgentTool } from "@pi/agent-core";
import { stream } from "@pi/ai";
import { apis, replayModel } from "../models.js";

const origin = new URL(location.href).searchParams.get("replay") ?? "";
const context = { messages: [{ role: "user" as const, content: "Hello", timestamp: 0 }] };

function show(id: string, value: unknown): void {
	const element = document.createElement("pre");
	element.id = id;
	element.textContent = JSON.stringify(value);
	document.body.append(element);
}

async function streamAll(): Promise<void> {
	for (const api of apis) {
		const s = stream(replayModel(api, origin), context, { apiKey: "browser-test-key", dangerouslyAllowBrowser: true } as never);
		let deltas = 0;
		for await (const event of s) if (event.type === "text_delta") deltas += 1;
		const message = await s.result();
		const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
		show(`result-${api}`, { stopReason: message.stopReason, text, deltas, errorMessage: message.errorMessage });
	}
}

async function abortByClick(): Promise<void> {
	const button = document.createElement("button");
	button.id = "abort";
	button.textContent = "Stop";
	document.body.append(button);
	const controller = new AbortController();
	button.addEventListener("click", () => controller.abort());
	const s = stream(replayModel("openai-completions", origin), context, { apiKey: "browser-test-key", signal: controller.signal });
	let first = true;
	for await (const event of s) {
		if (event.type === "text_delta" && first) {
			first = false;
			show("abort-ready", { partial: event.delta });
		}
	}
	const message = await s.result();
	const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
	show("result-abort", { stopReason: message.stopReason, text });
}

async function runAgent(): Promise<void> {
	const calls: unknown[] = [];
	const tool: AgentTool = {
		name: "get_book_info",
		label: "Book info",
		description: "Looks up a book.",
		parameters: { type: "object", properties: {}, additionalProperties: true } as never,
		execute: async (_id, params) => {
			calls.push(params);
			return { content: [{ type: "text", text: "The book has 300 pages." }], details: {} };
		},
	};
	const agent = new Agent({
		initialState: { model: replayModel("anthropic-messages", origin), tools: [tool], systemPrompt: "You are helpful." },
		getApiKey: () => "browser-test-key",
	});
	const events: string[] = [];
	agent.subscribe((event) => {
		events.push(event.type);
	});
	await agent.prompt("Tell me about the book");
	const last = agent.state.messages.at(-1);
	show("result-agent", {
		toolCalls: calls.length,
		roles: agent.state.messages.map((m) => ("role" in m ? m.role : "custom")),
		lastEvent: events.at(-1),
		stopReason: last && "stopReason" in last ? last.stopReason : undefined,
	});
}

async function main(): Promise<void> {
	try {
		await streamAll();
		await runAgent();
		await abortByClick();
	} catch (error) {
		show("page-error", String(error));
	}
	show("done", true);
}

void main();
