/**
 * A prompt's conversation: a new session file, a continued one (`-c`, `--session`), or none
 * (`--no-session`). The session is handed to the `Agent` (`AgentOptions.session`), which
 * appends every message at its end and awaits the append before the run goes on, so an
 * interrupted or crashed run keeps everything up to its last finished message, a partial reply
 * cut by Ctrl-C included.
 */
import type { Session, SessionContext, SessionEntry, SessionEntryInput } from "@pi/agent-core";
import { SessionCorruptError, SessionLockedError } from "@pi/agent-core";
import { openSessionFile } from "@pi/agent-core/node";
import type { Api, Model } from "@pi/ai";
import type { ResumedModel } from "./choose-model.js";
import { CliError } from "./cli-error.js";
import { createSessionFile, lastSessionFile, resolveSessionRef } from "./session-files.js";

/**
 * The custom entry that records the whole model a conversation used (its base URL included), so
 * that `-c` resumes a `--base-url` conversation without the flags. Written next to each
 * `model_change`.
 */
export const MODEL_ENTRY_TYPE = "pi-ai.model";

/** What the prompt command asked for. */
export interface ConversationRequest {
	continueLast: boolean;
	sessionRef: string | undefined;
	noSession: boolean;
}

/** An open conversation. */
export interface Conversation {
	/** `undefined` with `--no-session`. */
	session: Session | undefined;
	id: string | undefined;
	path: string | undefined;
	/** What the continued conversation holds (empty for a new one). */
	context: SessionContext;
	/** The model the continued conversation last used, as recorded (not yet trusted: see chooseModel). */
	resumed: ResumedModel | undefined;
}

const EMPTY_CONTEXT: SessionContext = { messages: [], model: undefined, thinkingLevel: undefined, systemPrompt: undefined };

/** Checks the flags against each other; call before any work. */
export function checkConversationFlags(request: ConversationRequest): void {
	if (request.noSession && (request.continueLast || request.sessionRef !== undefined)) throw new CliError("--no-session cannot be combined with -c or --session");
	if (request.continueLast && request.sessionRef !== undefined) throw new CliError("-c continues the last conversation; --session names one: give only one of them");
}

/** Opens the conversation to continue, if the flags name one; `undefined` means a new one. */
export async function openContinued(request: ConversationRequest): Promise<Conversation | undefined> {
	let target: { id: string; path: string } | undefined;
	if (request.continueLast) {
		target = lastSessionFile();
		if (!target) throw new CliError("no conversation to continue yet (-c continues the last one)");
	} else if (request.sessionRef !== undefined) {
		target = resolveSessionRef(request.sessionRef);
	}
	if (!target) return undefined;
	const session = await openFile(target.path);
	const context = await session.buildContext();
	return { session, id: session.id, path: target.path, context, resumed: await resumedModel(session, context) };
}

/** A new conversation in a new session file (or none, with `--no-session`). */
export async function openNew(request: ConversationRequest): Promise<Conversation> {
	if (request.noSession) return { session: undefined, id: undefined, path: undefined, context: EMPTY_CONTEXT, resumed: undefined };
	const { path } = createSessionFile();
	const session = await openFile(path);
	return { session, id: session.id, path, context: EMPTY_CONTEXT, resumed: undefined };
}

async function openFile(path: string): Promise<Session> {
	try {
		return await openSessionFile(path);
	} catch (error) {
		if (error instanceof SessionLockedError) throw new CliError(`${error.message}: that conversation is in use by another pi-ai (wait for it, or start a new one)`);
		if (error instanceof SessionCorruptError) throw new CliError(error.message);
		throw new CliError(`cannot open session ${path}: ${(error as Error).message}`);
	}
}

/** The conversation's last model (its `model_change`) and the CLI's record of it, if any. */
async function resumedModel(session: Session, context: SessionContext): Promise<ResumedModel | undefined> {
	if (!context.model) return undefined;
	const { provider, modelId } = context.model;
	return { provider, modelId, recorded: recordedModel(await session.path(), provider, modelId) };
}

/** The last `pi-ai.model` record among `entries` of `provider/modelId` (or of any model, without them). */
export function recordedModel(entries: readonly SessionEntry[], provider?: string, modelId?: string): Model<Api> | undefined {
	for (let index = entries.length - 1; index >= 0; index--) {
		const entry = entries[index];
		if (entry?.type !== "custom" || entry.customType !== MODEL_ENTRY_TYPE) continue;
		const data = (entry as { data?: unknown }).data as Partial<Model<Api>> | undefined;
		if (!data || typeof data !== "object") continue;
		if (provider === undefined || (data.provider === provider && data.id === modelId)) return data as Model<Api>;
	}
	return undefined;
}

/**
 * The custom entry recording the whole model, when it differs from the one the conversation last
 * recorded (another model, or the same at another base URL). The agent itself records
 * `model_change`, `thinking_level_change` and `system_prompt_change` entries, and every message.
 */
export function modelRecord(conversation: Conversation, model: Model<Api>): SessionEntryInput | undefined {
	const { context, resumed } = conversation;
	const same = context.model?.provider === model.provider && context.model?.modelId === model.id && resumed?.recorded?.baseUrl === model.baseUrl;
	return same ? undefined : { type: "custom", customType: MODEL_ENTRY_TYPE, data: model };
}
