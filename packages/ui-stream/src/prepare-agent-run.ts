import type { Agent, AgentMessage } from "@pi/agent-core";
import { approvalResponses, fromUIMessages } from "./from-ui-messages.js";
import { UIMessagesError } from "./ui-messages-error.js";
import type { UIMessageInput } from "./ui-message.js";

/** What a request asks of the agent, ready to run: every check and decision is done. */
export interface PreparedRun {
	/** Starts the run; resolves when it is over. */
	run: () => Promise<void>;
	/** Whether the reply goes on the client's last assistant message (a continuation after approvals). */
	continues: boolean;
	/** That message's metadata, when it continues. */
	previousMetadata: unknown;
	/** The idempotency key for the reply's first message: the UI message id the stream announces. */
	replyKey: string | undefined;
}

/**
 * Turns a request's UI messages into the agent's context and the run to start, before any
 * model call, so that bad input is refused (a {@link UIMessagesError}) and nothing runs.
 *
 * - Without a session: the UI messages are the history; the last must be the user's, and it
 *   is prompted. Approval answers are refused: a client's history is not proof that a call was
 *   asked about, so an approval needs the pause to be in a session.
 * - With a session: the history is the session's. UI messages it holds (found by their id as
 *   an entry's idempotency key, or as an entry's id) are skipped; the others are prompted with their id as key. The
 *   last assistant message's approval answers become `agent.approve`/`agent.reject` for the
 *   calls still pending, and the run is `agent.continue()`.
 */
export async function prepareAgentRun(agent: Agent, uiMessages: readonly UIMessageInput[], newMessageId: () => string = randomMessageId): Promise<PreparedRun> {
	const converted = fromUIMessages(uiMessages);
	const responses = approvalResponses(uiMessages);
	const last = uiMessages[uiMessages.length - 1];
	const session = agent.session;
	if (!session) {
		if (responses.length > 0) {
			const index = uiMessages.length - 1;
			const partIndex = (last?.parts ?? []).findIndex((part) => (part as { state?: unknown }).state === "approval-responded");
			throw new UIMessagesError(`uiMessages[${index}].parts[${partIndex}]`, "an approval answer needs an agent with a session (the pause is kept there); this agent has none");
		}
		if (last?.role !== "user") throw new UIMessagesError(`uiMessages[${uiMessages.length - 1}]`, "the last UI message must be the user's (or, with a session, an assistant's with approval answers)");
		const prompt = converted[converted.length - 1] as AgentMessage;
		agent.state.messages = converted.slice(0, -1);
		const replyKey = newMessageId();
		return { run: () => agent.prompt(prompt), continues: false, previousMetadata: undefined, replyKey };
	}

	const fresh: AgentMessage[] = [];
	const keys = new Map<AgentMessage, string>();
	// Held: appended with this id as its key, or shown with its entry's id (toUIMessages with entry ids).
	const held = (id: string) => session.findByIdempotencyKey(id) !== undefined || session.hasEntry(id);
	for (const uiMessage of uiMessages) {
		if (held(uiMessage.id)) continue;
		const messages = fromUIMessages([uiMessage]);
		const first = messages[0];
		if (!first) continue;
		// Each UI message's first agent message carries its id: a resend finds it and skips it.
		keys.set(first, uiMessage.id);
		fresh.push(...messages);
	}
	if (fresh.length > 0) {
		if (last?.role !== "user" || held(last.id)) {
			throw new UIMessagesError(`uiMessages[${uiMessages.length - 1}]`, "new UI messages must end with the user's");
		}
		const replyKey = newMessageId();
		return { run: () => keyed(agent, keys, replyKey, () => agent.prompt(fresh)), continues: false, previousMetadata: undefined, replyKey };
	}
	if (responses.length > 0) {
		const pending = new Set(agent.state.pendingApprovals.map((call) => call.toolCallId));
		// A resent answer (already decided) is skipped: the decision is in the session.
		for (const response of responses) {
			if (!pending.has(response.toolCallId)) continue;
			if (response.approved) await agent.approve(response.toolCallId, response.reason === undefined ? {} : { reason: response.reason });
			else await agent.reject(response.toolCallId, response.reason === undefined ? {} : { reason: response.reason });
		}
		return { run: () => agent.continue(), continues: true, previousMetadata: last?.metadata, replyKey: undefined };
	}
	// Everything is in the session already (a resend): nothing to run.
	return { run: async () => {}, continues: true, previousMetadata: last?.metadata, replyKey: undefined };
}

/** Runs with the agent keying the prompted messages and the reply's first message, then restores its own keys. */
async function keyed(agent: Agent, keys: Map<AgentMessage, string>, replyKey: string, run: () => Promise<void>): Promise<void> {
	const own = agent.idempotencyKey;
	let replyKeyed = false;
	agent.idempotencyKey = (message) => {
		const key = keys.get(message);
		if (key !== undefined) return key;
		if (!replyKeyed && (message as { role?: unknown }).role === "assistant") {
			replyKeyed = true;
			return replyKey;
		}
		return own?.(message);
	};
	try {
		await run();
	} finally {
		agent.idempotencyKey = own;
	}
}

/** A new assistant message id, as the stream's `start` announces it. */
function randomMessageId(): string {
	return `msg-${crypto.randomUUID()}`;
}
