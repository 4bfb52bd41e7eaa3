/** A Chat Completions stream asking for one tool call (written by hand: no capture calls the calculator). */
export function toolCallStream(name: string, args: object): string {
	const chunk = (delta: object, finish: string | null = null) =>
		`data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
	const text = JSON.stringify(args);
	return [
		chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name, arguments: "" } }] }),
		chunk({ tool_calls: [{ index: 0, function: { arguments: text.slice(0, 5) } }] }),
		chunk({ tool_calls: [{ index: 0, function: { arguments: text.slice(5) } }] }),
		chunk({}, "tool_calls"),
		"data: [DONE]\n\n",
	].join("");
}
