/** A faux provider and transcripts for the Agent compaction tests. */
import { type AssistantMessage, type Context, fauxAssistantMessage, type Model, registerFauxProvider } from "@pi/ai";
import { type AgentMessage, SUMMARY_SYSTEM_PROMPT } from "../../src/index.js";

let faux: ReturnType<typeof registerFauxProvider> | undefined;

/** Removes the provider `setup` registered. */
export function unregisterFaux(): void {
	faux?.unregister();
	faux = undefined;
}

/** What the faux model was asked, split into summary calls and the agent's own calls. */
export interface Calls {
	main: Context[];
	summaries: Context[];
	/** The model id of each summary call. */
	summaryModels: string[];
}

/**
 * A faux provider whose model has a `contextWindow`-token window. Summary calls (recognised by
 * their system prompt) get `summarise(n)`; the agent's calls get `answer(n)`, `n` counting each.
 */
export function setup(options: {
	contextWindow: number;
	answer?: (index: number, context: Context) => AssistantMessage | Promise<AssistantMessage>;
	summarise?: (index: number, context: Context) => AssistantMessage | Promise<AssistantMessage>;
}) {
	faux = registerFauxProvider({
		models: [
			{ id: "small", contextWindow: options.contextWindow, maxTokens: 1_000 },
			{ id: "summarizer", contextWindow: 200_000, maxTokens: 4_000 },
		],
	});
	const calls: Calls = { main: [], summaries: [], summaryModels: [] };
	const step = (context: Context, _options: unknown, _state: unknown, model: Model<string>) => {
		if (context.systemPrompt === SUMMARY_SYSTEM_PROMPT) {
			calls.summaries.push(context);
			calls.summaryModels.push(model.id);
			return options.summarise?.(calls.summaries.length, context) ?? fauxAssistantMessage(`## Goal\nSummary ${calls.summaries.length}.`);
		}
		calls.main.push(context);
		return options.answer?.(calls.main.length, context) ?? fauxAssistantMessage(long(`answer ${calls.main.length}`));
	};
	faux.setResponses(Array.from({ length: 60 }, () => step));
	return { model: faux.getModel(), summarizer: faux.getModel("summarizer") as Model<string>, calls };
}

export const long = (label: string) => `${label}: ${"lorem ipsum dolor sit amet ".repeat(74)}`; // about 500 tokens

/** A finished earlier conversation of `turns` turns of about 1,000 tokens each. */
export function history(turns: number): AgentMessage[] {
	const messages: AgentMessage[] = [];
	for (let turn = 0; turn < turns; turn++) {
		messages.push({ role: "user", content: long(`question ${turn}`), timestamp: 1_000 + turn * 2 });
		messages.push({ ...fauxAssistantMessage(long(`answer ${turn}`)), timestamp: 1_001 + turn * 2 });
	}
	return messages;
}

