/**
 * UI messages that cannot become a transcript. `message` names the first bad part and what is
 * wrong with it (`uiMessages[2].parts[1]: a tool part needs a "toolCallId" string`); `path` is
 * that place alone. `createAgentUIStreamResponse` answers it with a 400, before any model call.
 *
 * @example
 * ```ts
 * try { fromUIMessages(body.messages); } catch (error) { if (error instanceof UIMessagesError) console.log(error.path); }
 * ```
 */
export class UIMessagesError extends Error {
	override readonly name = "UIMessagesError";

	constructor(
		/** Where: `uiMessages[2].parts[1]`, or `uiMessages` itself. */
		readonly path: string,
		/** What is wrong there. */
		readonly problem: string,
	) {
		super(`${path}: ${problem}`);
	}
}
