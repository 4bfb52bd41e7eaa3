import { AbstractChat, type ChatInit, type ChatState, type ChatStatus, DefaultChatTransport, type UIMessage } from "ai";

/** The simplest `ChatState`: plain arrays, as the AI SDK's own vanilla chat keeps them. */
class ArrayChatState implements ChatState<UIMessage> {
	status: ChatStatus = "ready";
	error: Error | undefined = undefined;
	messages: UIMessage[];

	constructor(messages: UIMessage[] = []) {
		this.messages = messages;
	}
	pushMessage = (message: UIMessage) => {
		this.messages = this.messages.concat(message);
	};
	popMessage = () => {
		this.messages = this.messages.slice(0, -1);
	};
	replaceMessage = (index: number, message: UIMessage) => {
		this.messages = [...this.messages.slice(0, index), message, ...this.messages.slice(index + 1)];
	};
	snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** `ai`'s `AbstractChat` in Node, over `DefaultChatTransport` to `api`. */
export class NodeChat extends AbstractChat<UIMessage> {
	readonly errors: Error[] = [];

	/** `api` may be a function: each request goes to the server it names then (another process, say). */
	constructor(api: string | (() => string), init: Omit<ChatInit<UIMessage>, "transport"> = {}) {
		const errors: Error[] = [];
		const apiNow = typeof api === "string" ? () => api : api;
		super({
			...init,
			transport: new DefaultChatTransport({ api: apiNow(), prepareSendMessagesRequest: ({ messages, body, id }) => ({ api: apiNow(), body: { ...body, id, messages } }) }),
			state: new ArrayChatState(init.messages),
			onError: (error) => {
				errors.push(error);
				init.onError?.(error);
			},
		});
		this.errors = errors;
	}
}
