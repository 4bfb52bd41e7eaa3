/**
 * The AI SDK's UI message vocabulary, as far as this package reads or writes it: UI messages and
 * their parts (what `useChat` keeps and sends), and the chunks of the UI message stream (what a
 * server sends back). These are this package's own types, so it has no run-time or type-level
 * dependency on `ai`; `test/ai-types.test.ts` checks them against `ai`'s (our messages and
 * chunks are assignable to `ai`'s, and `ai`'s messages are accepted by `fromUIMessages`).
 *
 * Types only: importing this module costs nothing at run time.
 */

/** Provider data on a part, by provider; this package writes its own under the `pi` key. */
export type ProviderMetadata = Record<string, Record<string, JSONValue>>;

/** A JSON value. */
export type JSONValue = null | string | number | boolean | JSONValue[] | { [key: string]: JSONValue };

/** A text part. */
export type TextUIPart = {
	type: "text";
	text: string;
	state?: "streaming" | "done";
	providerMetadata?: ProviderMetadata;
};

/** A reasoning part (our `thinking` block). */
export type ReasoningUIPart = {
	type: "reasoning";
	text: string;
	state?: "streaming" | "done";
	providerMetadata?: ProviderMetadata;
};

/** A file part: a URL, usually a data URL. Images become our `image` blocks. */
export type FileUIPart = {
	type: "file";
	mediaType: string;
	filename?: string;
	url: string;
	providerMetadata?: ProviderMetadata;
};

/** The boundary between two model calls (steps) of one assistant message. */
export type StepStartUIPart = {
	type: "step-start";
};

/** A tool call's approval, as the AI SDK keeps it on the part. */
export type ToolApproval = {
	id: string;
	approved?: boolean;
	reason?: string;
};

/** What every tool part has, whatever its state. */
type ToolUIPartBase = {
	/** `tool-<name>`. */
	type: `tool-${string}`;
	toolCallId: string;
	callProviderMetadata?: ProviderMetadata;
};

/** A tool part in each of its states; `approval` is set from `approval-requested` on. */
export type ToolUIPart = ToolUIPartBase &
	(
		| { state: "input-streaming"; input?: unknown }
		| { state: "input-available"; input: unknown }
		| { state: "approval-requested"; input: unknown; approval: { id: string } }
		| { state: "approval-responded"; input: unknown; approval: { id: string; approved: boolean; reason?: string } }
		| { state: "output-available"; input: unknown; output: unknown; resultProviderMetadata?: ProviderMetadata; approval?: { id: string; approved: true; reason?: string } }
		| { state: "output-error"; input: unknown; errorText: string; resultProviderMetadata?: ProviderMetadata; approval?: { id: string; approved: true; reason?: string } }
		| { state: "output-denied"; input: unknown; approval: { id: string; approved: false; reason?: string } }
	);

/** The parts this package writes. */
export type UIMessagePart = TextUIPart | ReasoningUIPart | FileUIPart | StepStartUIPart | ToolUIPart;

/**
 * A UI message as `toUIMessages` writes it. Its `metadata` is {@link PiMessageMetadata} for an
 * assistant message.
 */
export interface UIMessage<METADATA = unknown> {
	id: string;
	role: "system" | "user" | "assistant";
	metadata?: METADATA;
	parts: UIMessagePart[];
}

/**
 * A UI message as a client sends it (`useChat`'s `messages`): any part types; `fromUIMessages`
 * checks each part it reads and names the first bad one.
 */
export interface UIMessageInput {
	id: string;
	role: "system" | "user" | "assistant";
	metadata?: unknown;
	parts: readonly { type: string; [key: string]: unknown }[];
}

/** Why a stream finished, in the AI SDK's words. */
export type FinishReason = "stop" | "length" | "content-filter" | "tool-calls" | "error" | "interrupted" | "other";

/** A chunk of the UI message stream: the kinds this package sends. */
export type UIMessageChunk<METADATA = unknown> =
	| { type: "start"; messageId?: string; messageMetadata?: METADATA }
	| { type: "start-step" }
	| { type: "finish-step" }
	| { type: "text-start"; id: string; providerMetadata?: ProviderMetadata }
	| { type: "text-delta"; id: string; delta: string; providerMetadata?: ProviderMetadata }
	| { type: "text-end"; id: string; providerMetadata?: ProviderMetadata }
	| { type: "reasoning-start"; id: string; providerMetadata?: ProviderMetadata }
	| { type: "reasoning-delta"; id: string; delta: string; providerMetadata?: ProviderMetadata }
	| { type: "reasoning-end"; id: string; providerMetadata?: ProviderMetadata }
	| { type: "tool-input-start"; toolCallId: string; toolName: string }
	| { type: "tool-input-delta"; toolCallId: string; inputTextDelta: string }
	| { type: "tool-input-available"; toolCallId: string; toolName: string; input: unknown; providerMetadata?: ProviderMetadata }
	| { type: "tool-approval-request"; approvalId: string; toolCallId: string }
	| { type: "tool-output-available"; toolCallId: string; output: unknown; providerMetadata?: ProviderMetadata }
	| { type: "tool-output-error"; toolCallId: string; errorText: string; providerMetadata?: ProviderMetadata }
	| { type: "tool-output-denied"; toolCallId: string }
	| { type: "message-metadata"; messageMetadata: METADATA }
	| { type: "error"; errorText: string }
	| { type: "abort"; reason?: string }
	| { type: "finish"; finishReason?: FinishReason; messageMetadata?: METADATA };
