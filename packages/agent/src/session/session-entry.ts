/**
 * The vocabulary of sessions: the entries of the append-only log and what `buildContext`
 * derives from them. Types only. Field names follow pi's coding-agent session files where the
 * two overlap, so that files move between them (see docs/sessions.md for the differences).
 */
import type { AgentMessage, ThinkingLevel } from "../types.js";

/** Fields every entry has. `parentId` is `null` for a root entry; timestamps are Unix milliseconds. */
export interface SessionEntryBase {
	/** Unique within the session. */
	id: string;
	/** The entry this one follows on its branch, or `null` for the first entry of a branch from the root. */
	parentId: string | null;
	/** When the entry was appended, in Unix milliseconds. */
	timestamp: number;
}

/** One message of the transcript: an LLM message or one of the app's custom messages. */
export interface SessionMessageEntry extends SessionEntryBase {
	type: "message";
	message: AgentMessage;
	/**
	 * Set by whoever appended the message to make the append idempotent: a job that carries a key
	 * checks `session.findByIdempotencyKey(key)` before appending the same prompt again.
	 */
	idempotencyKey?: string;
	/** The id of the entry this message replaces (a sibling, e.g. a deferred reply's placeholder). */
	replaces?: string;
	/** The app's JSON data about the entry (never sent to the model). */
	metadata?: Record<string, unknown>;
}

/** The model changed: the following turns use `provider`/`modelId`. */
export interface ModelChangeEntry extends SessionEntryBase {
	type: "model_change";
	provider: string;
	modelId: string;
}

/** The reasoning level changed. */
export interface ThinkingLevelChangeEntry extends SessionEntryBase {
	type: "thinking_level_change";
	thinkingLevel: ThinkingLevel;
}

/** The system prompt changed (not in pi's files, which keep the prompt out of the log). */
export interface SystemPromptChangeEntry extends SessionEntryBase {
	type: "system_prompt_change";
	systemPrompt: string;
}

/** A name for an entry (a bookmark); `label: undefined` removes the name. */
export interface LabelEntry extends SessionEntryBase {
	type: "label";
	targetId: string;
	label: string | undefined;
}

/** App data that is not a message: never part of the context. */
export interface CustomEntry<T = unknown> extends SessionEntryBase {
	type: "custom";
	customType: string;
	data?: T;
}

/**
 * A compaction: from here on, the context is `summary` (as a `compactionSummary` message)
 * followed by the messages from `firstKeptEntryId` on. Nothing before it is deleted from the log.
 */
export interface CompactionEntry<T = unknown> extends SessionEntryBase {
	type: "compaction";
	summary: string;
	/** The first message entry, on the same path before this entry, that the context keeps. */
	firstKeptEntryId: string;
	/** The estimated context size before the compaction. */
	tokensBefore: number;
	/** The app's or compactor's data (e.g. the files it read); not part of the context. */
	details?: T;
}

/**
 * A tool call that needs a person's approval (see docs/approvals.md). Appended by the agent
 * after the assistant message that made the call; with no decision after it, the call is pending.
 */
export interface ToolApprovalRequestEntry extends SessionEntryBase {
	type: "tool_approval_request";
	toolCallId: string;
	toolName: string;
	/** The call's arguments, as the model gave them. */
	arguments: Record<string, unknown>;
}

/** A person's decision on a requested tool call. */
export interface ToolApprovalDecisionEntry extends SessionEntryBase {
	type: "tool_approval_decision";
	toolCallId: string;
	approved: boolean;
	/** Why, in the person's words; a rejection's reason reaches the model. */
	reason?: string;
}

/**
 * An approved tool call is about to run: appended before its `execute`, so that a process that
 * stops while it runs leaves the call interrupted on resume, never run twice.
 */
export interface ToolApprovalRunEntry extends SessionEntryBase {
	type: "tool_approval_run";
	toolCallId: string;
}

/** The entries of a tool call's approval: request, decision, and the start of an approved run. */
export type ToolApprovalEntry = ToolApprovalRequestEntry | ToolApprovalDecisionEntry | ToolApprovalRunEntry;

/**
 * The leaf moved: `session.branch(id)` writes it, with the new leaf as its parent (`null`:
 * before the first entry), so that a reopened session's leaf is where the app left it even
 * when nothing was appended after the move. It adds nothing to the context, and nothing
 * attaches under it: the next entry attaches to its parent. pi's coding agent reads it as an
 * entry of an unknown type whose path leads to the new leaf, so it resumes there too.
 */
export interface LeafEntry extends SessionEntryBase {
	type: "leaf";
}

/**
 * An entry of a session's log. Entries of other types (from pi's files, or newer versions) are
 * kept in the log as they are and ignored by `buildContext`.
 */
export type SessionEntry =
	| SessionMessageEntry
	| ModelChangeEntry
	| ThinkingLevelChangeEntry
	| SystemPromptChangeEntry
	| LabelEntry
	| CustomEntry
	| CompactionEntry
	| ToolApprovalEntry
	| LeafEntry;

/** The `type` values of {@link SessionEntry}. */
export type SessionEntryType = SessionEntry["type"];

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * An entry to append: the session fills in `id`, `parentId` (the leaf) and `timestamp`. A
 * `leaf` entry is not one: `session.branch()` writes it.
 *
 * @example
 * ```ts
 * await session.append({ type: "custom", customType: "ui-state", data: { folded: [2] } });
 * ```
 */
export type SessionEntryInput = DistributiveOmit<Exclude<SessionEntry, LeafEntry>, "id" | "parentId" | "timestamp">;

/**
 * A tool call's approval record, as an agent keeps it in memory or appends it to its session:
 * a {@link ToolApprovalEntry} without the fields the session fills in.
 */
export type ToolApprovalRecord = DistributiveOmit<ToolApprovalEntry, "id" | "parentId" | "timestamp">;

/** A model named by a session: the catalog key of `getModel(provider, modelId)`. */
export interface SessionModelRef {
	provider: string;
	modelId: string;
}

/**
 * What a path of the session means for an agent: the messages a model call would start from
 * (after the latest compaction: its summary, then the kept messages) and the latest settings.
 * A setting is `undefined` when the path never set it.
 */
export interface SessionContext {
	messages: AgentMessage[];
	/** The latest `model_change`, or else the latest assistant message's `provider`/`model`. */
	model: SessionModelRef | undefined;
	thinkingLevel: ThinkingLevel | undefined;
	systemPrompt: string | undefined;
}
