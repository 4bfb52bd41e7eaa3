import type { Model } from "@pi/ai";
import { leafPath } from "../session/leaf-path.js";
import type { Session } from "../session/session.js";
import type { SessionEntryInput, SessionModelRef } from "../session/session-entry.js";
import type { AgentMessage, CompactionSummaryMessage, ThinkingLevel } from "../types.js";

/** The settings an agent records in its session. */
export interface RecordedSettings {
	model: SessionModelRef | undefined;
	thinkingLevel: ThinkingLevel;
	systemPrompt: string;
}

/**
 * Keeps an agent's session in step with its transcript and settings.
 *
 * The transcript is always one path of the session: every message the session holds is known
 * by identity (message object to entry id). Persisting appends the messages after the last
 * known one, under that one's entry, so a transcript the app rewound or replaced (`reset()`,
 * a deferred reply taking its placeholder's place) continues as a new branch, and the old one
 * stays in the log. Compaction summaries are never stored as messages: a `compaction` entry
 * stands for them.
 */
export class SessionRecorder {
	private readonly entryIds = new WeakMap<object, string>();
	private recorded: RecordedSettings;

	constructor(
		readonly session: Session,
		initial: RecordedSettings,
	) {
		this.recorded = initial;
		for (const entry of leafPath(session)) if (entry.type === "message") this.entryIds.set(entry.message as object, entry.id);
	}

	/** Records that `message` is stored as entry `entryId` (for code that appends on its own). */
	markPersisted(message: AgentMessage, entryId: string): void {
		this.entryIds.set(message as object, entryId);
	}

	/** True when `message` is stored in the session. */
	isPersisted(message: AgentMessage): boolean {
		return this.entryIds.has(message as object);
	}

	/**
	 * Appends `model_change`, `thinking_level_change` and `system_prompt_change` entries for the
	 * settings that differ from what the session's path last recorded, in one append.
	 */
	async recordSettings(messages: readonly AgentMessage[], settings: { model: Model | undefined; thinkingLevel: ThinkingLevel; systemPrompt: string }): Promise<void> {
		const parentId = this.parentFor(messages);
		const base = parentId === this.session.leafId ? this.recorded : await this.settingsAt(parentId);
		const inputs: SessionEntryInput[] = [];
		const model = settings.model;
		if (model && (base.model?.provider !== model.provider || base.model?.modelId !== model.id)) {
			inputs.push({ type: "model_change", provider: model.provider, modelId: model.id });
		}
		if (settings.thinkingLevel !== base.thinkingLevel) inputs.push({ type: "thinking_level_change", thinkingLevel: settings.thinkingLevel });
		if (settings.systemPrompt !== base.systemPrompt) inputs.push({ type: "system_prompt_change", systemPrompt: settings.systemPrompt });
		if (inputs.length === 0 && parentId === this.session.leafId) return;
		if (inputs.length > 0) await this.session.append(inputs, { parentId });
		this.recorded = {
			model: model ? { provider: model.provider, modelId: model.id } : base.model,
			thinkingLevel: settings.thinkingLevel,
			systemPrompt: settings.systemPrompt,
		};
	}

	/**
	 * Appends the transcript's messages that the session does not hold yet, in one append; each
	 * entry gets the idempotency key `keyOf` gives its message, if any.
	 */
	async persist(messages: readonly AgentMessage[], keyOf?: (message: AgentMessage) => string | undefined): Promise<void> {
		let start = messages.length;
		while (start > 0 && !this.isAnchor(messages[start - 1] as AgentMessage)) start--;
		const fresh = messages.slice(start).filter((message) => !isCompactionSummary(message));
		if (fresh.length === 0) return;
		const parentId = this.parentFor(messages);
		if (parentId !== this.session.leafId) this.recorded = await this.settingsAt(parentId);
		const entries = await this.session.append(
			fresh.map((message): SessionEntryInput => {
				const key = keyOf?.(message);
				return key === undefined ? { type: "message", message } : { type: "message", message, idempotencyKey: key };
			}),
			{ parentId },
		);
		entries.forEach((entry, index) => this.entryIds.set(fresh[index] as object, entry.id));
		for (const message of fresh) {
			if ((message as { role?: unknown }).role === "assistant") {
				const reply = message as { provider: string; model: string };
				this.recorded = { ...this.recorded, model: this.recorded.model ?? { provider: reply.provider, modelId: reply.model } };
			}
		}
	}

	/** Where the transcript's next entry attaches (see `parentFor`): the end of its path in the session. */
	attachPoint(messages: readonly AgentMessage[]): string | null {
		return this.parentFor(messages);
	}

	/** Appends entries that are not messages (approval records) at the end of the transcript's path, in one append. */
	async appendRecords(messages: readonly AgentMessage[], inputs: readonly SessionEntryInput[]): Promise<void> {
		const parentId = this.parentFor(messages);
		if (parentId !== this.session.leafId) this.recorded = await this.settingsAt(parentId);
		await this.session.append(inputs, { parentId });
	}

	/**
	 * Records a compaction the agent made: appends a `compaction` entry at the end of the
	 * transcript's path, whose `firstKeptEntryId` is the entry of `firstKept` (the first message
	 * the compacted transcript keeps after its summary; empty when it keeps none). The
	 * compaction's summary message then stands for that entry. Call it on `compaction_end`.
	 */
	async recordCompaction(compaction: { summary: string; firstKept: AgentMessage | undefined; tokensBefore: number; details?: unknown }, messagesBefore: readonly AgentMessage[]): Promise<string> {
		const firstKeptEntryId = compaction.firstKept ? (this.entryIds.get(compaction.firstKept as object) ?? "") : "";
		const input: SessionEntryInput = { type: "compaction", summary: compaction.summary, firstKeptEntryId, tokensBefore: compaction.tokensBefore };
		if (compaction.details !== undefined) input.details = compaction.details;
		const [entry] = await this.session.append([input], { parentId: this.parentFor(messagesBefore) });
		return (entry as { id: string }).id;
	}

	/**
	 * Where the transcript's next entry attaches: at the session's leaf when the transcript's
	 * last stored message is the leaf's latest message (settings entries may follow it), else
	 * under that message's entry (the transcript took another branch), or as a new root when
	 * no message of the transcript is stored.
	 */
	private parentFor(messages: readonly AgentMessage[]): string | null {
		let anchor: AgentMessage | undefined;
		for (let index = messages.length - 1; index >= 0; index--) {
			const message = messages[index] as AgentMessage;
			if (this.isAnchor(message)) {
				anchor = message;
				break;
			}
		}
		// A compaction summary stands for the compaction entry the compactor appended at the leaf.
		if (anchor && isCompactionSummary(anchor)) return this.session.leafId;
		const anchorId = anchor ? (this.entryIds.get(anchor as object) as string) : null;
		return this.latestMessageAtLeaf() === anchorId ? this.session.leafId : anchorId;
	}

	/** The id of the leaf's latest message entry (skipping settings and other entries), or null. */
	private latestMessageAtLeaf(): string | null {
		let id = this.session.leafId;
		while (id !== null) {
			const entry = this.session.getEntry(id);
			if (!entry || entry.type === "message") return id;
			id = entry.parentId;
		}
		return null;
	}

	private isAnchor(message: AgentMessage): boolean {
		return this.entryIds.has(message as object) || isCompactionSummary(message);
	}

	private async settingsAt(entryId: string | null): Promise<RecordedSettings> {
		const context = await this.session.buildContext(entryId);
		return { model: context.model, thinkingLevel: context.thinkingLevel ?? "off", systemPrompt: context.systemPrompt ?? "" };
	}
}

function isCompactionSummary(message: AgentMessage): message is CompactionSummaryMessage {
	return (message as { role?: unknown }).role === "compactionSummary";
}
