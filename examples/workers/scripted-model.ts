/**
 * The model of the example: the scripted (faux) provider of @pi/ai, answering from the
 * transcript it is sent, so that any worker gives the same reply at any point of any
 * conversation, including after a crash. Each turn: two parallel tool calls, then one more,
 * then a final answer.
 */
import { type AssistantMessage, type Context, fauxAssistantMessage, fauxToolCall, registerFauxProvider } from "@pi/ai";

/** Registers the scripted model; `refill()` before each job keeps its queue of replies from running dry. */
export function registerScriptedModel() {
	const faux = registerFauxProvider({ tokenSize: { min: 4, max: 16 } });
	const refill = () => faux.setResponses(Array.from({ length: 32 }, () => reply));
	return { model: faux.getModel(), refill };
}

/** The reply to a transcript: a pure function of it. */
export function reply(context: Context): AssistantMessage {
	const messages = context.messages;
	let lastUser = -1;
	let turn = 0;
	messages.forEach((message, index) => {
		if (message.role === "user") {
			lastUser = index;
			turn++;
		}
	});
	const since = messages.slice(lastUser + 1);
	const calls = since.filter((message) => message.role === "assistant").length;
	const results = since.filter((message) => message.role === "toolResult").map((message) => message.content.map((block) => (block.type === "text" ? block.text : "")).join(""));
	if (calls === 0) {
		return fauxAssistantMessage([
			fauxToolCall("add", { a: turn, b: 2 }, { id: `call_${turn}_1` }),
			fauxToolCall("multiply", { a: turn, b: 3 }, { id: `call_${turn}_2` }),
		]);
	}
	if (calls === 1) {
		const sum = results.map(Number).filter(Number.isFinite).reduce((total, value) => total + value, 0);
		return fauxAssistantMessage([fauxToolCall("add", { a: sum, b: 1 }, { id: `call_${turn}_3` })]);
	}
	return fauxAssistantMessage(`Turn ${turn} done: ${results.join(", ")}.`);
}
