/**
 * A user's own code written against @mariozechner/pi-ai / pi-agent-core 0.73.1: a StreamFn with
 * its own stream class, a custom provider, a Model, a Context, an AgentTool, an AgentEvent
 * handler and AgentOptions. user-code.pi.ts is this file with only the package names changed;
 * both compile in the examples typecheck task, and test/reference-compat-coverage.test.ts checks
 * that the two stay identical apart from those names. Nothing here runs.
 */
import { Agent, type AgentEvent, type AgentOptions, type AgentTool, type StreamFn } from "@mariozechner/pi-agent-core";
import {
	type AssistantMessage,
	type AssistantMessageEvent,
	type Context,
	createAssistantMessageEventStream,
	getModel,
	type Model,
	registerApiProvider,
	StringEnum,
	streamSimple,
	Type,
} from "@mariozechner/pi-ai";

/** A user's own event stream class, not derived from the library's. */
class ReplayStream implements AsyncIterable<AssistantMessageEvent> {
	constructor(private readonly events: AssistantMessageEvent[], private readonly final: AssistantMessage) {}
	async *[Symbol.asyncIterator](): AsyncIterator<AssistantMessageEvent> {
		for (const event of this.events) yield event;
	}
	result(): Promise<AssistantMessage> {
		return Promise.resolve(this.final);
	}
}

export const replayStreamFn = (final: AssistantMessage) =>
	((_model: Model<any>, _context: Context) => new ReplayStream([{ type: "done", reason: "stop", message: final }], final)) as unknown as StreamFn;

export const withKey: StreamFn = (model, context, options) => streamSimple(model, context, { ...options, apiKey: "from-my-vault" });

export const local: Model<"openai-completions"> = {
	id: "llama-3.1-8b",
	name: "Llama 3.1 8B (local)",
	api: "openai-completions",
	provider: "ollama",
	baseUrl: "http://127.0.0.1:11434/v1",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 128_000,
	maxTokens: 8192,
	compat: { supportsDeveloperRole: false, maxTokensField: "max_tokens", thinkingFormat: "qwen" },
};

export const catalogModel = getModel("anthropic", "claude-sonnet-4-20250514");

export const context: Context = {
	systemPrompt: "You are helpful.",
	messages: [{ role: "user", content: [{ type: "text", text: "Hi" }], timestamp: Date.now() }],
	tools: [{ name: "calc", description: "Calculate", parameters: Type.Object({ expression: Type.String() }) }],
};

registerApiProvider({
	api: "my-api",
	stream: (model, _context, _options) => {
		const stream = createAssistantMessageEventStream();
		queueMicrotask(() => stream.end());
		void model;
		return stream;
	},
	streamSimple: (_model, _context, _options) => createAssistantMessageEventStream(),
});

export const calculator: AgentTool = {
	name: "calculate",
	label: "Calculator",
	description: "Evaluates arithmetic",
	parameters: Type.Object({ op: StringEnum(["add", "subtract"]), a: Type.Number(), b: Type.Number() }),
	execute: async (_toolCallId, params) => {
		const { op, a, b } = params as { op: "add" | "subtract"; a: number; b: number };
		return { content: [{ type: "text", text: String(op === "add" ? a + b : a - b) }], details: { op } };
	},
};

export function onEvent(event: AgentEvent): string | undefined {
	switch (event.type) {
		case "message_update":
			return event.assistantMessageEvent.type === "text_delta" ? event.assistantMessageEvent.delta : undefined;
		case "tool_execution_start":
			return `${event.toolName}(${JSON.stringify(event.args)})`;
		case "tool_execution_end":
			return event.isError ? "tool failed" : "tool ok";
		case "message_end":
			return event.message.role;
		case "agent_end":
			return `${event.messages.length} messages`;
		default:
			return undefined;
	}
}

export const options: AgentOptions = {
	initialState: { systemPrompt: "Be brief.", model: local, thinkingLevel: "off", tools: [calculator], messages: [] },
	streamFn: withKey,
	getApiKey: (provider) => (provider === "ollama" ? "none" : undefined),
	beforeToolCall: async ({ toolCall }) => (toolCall.name === "rm" ? { block: true, reason: "not allowed" } : undefined),
	toolExecution: "sequential",
	sessionId: "session-1",
};

export const agent = new Agent(options);
agent.subscribe((event) => {
	onEvent(event);
});
