import { getModel, type Model, type Provider } from "@pi/ai";
import { buildSessionContext } from "../session/build-context.js";
import { leafPath } from "../session/leaf-path.js";
import type { Session } from "../session/session.js";
import type { SessionModelRef } from "../session/session-entry.js";
import type { AgentState } from "../types.js";
import type { RecordedSettings } from "./session-recorder.js";

type InitialState = Partial<Pick<AgentState, "systemPrompt" | "model" | "thinkingLevel" | "tools" | "messages">>;

/** An agent's starting state taken from its session, and what the session recorded. */
export interface ResumedState {
	initial: InitialState;
	recorded: RecordedSettings;
	/** The session's model, when the catalog lacks it and the app passed none. */
	missingModel: { ref: SessionModelRef; placeholder: Model } | undefined;
}

/**
 * The state a resumed agent starts with: the session's messages, model, thinking level and
 * system prompt, each unless the app's `initialState` gives its own. The model is looked up in
 * the catalog by the session's last `model_change` (or else its last reply's provider/model).
 */
export function resumeFromSession(session: Session, initial: InitialState = {}): ResumedState {
	// The leaf's path is in memory: the constructor that calls this cannot await buildContext().
	const context = buildSessionContext(leafPath(session));
	if (initial.messages && context.messages.length > 0) {
		throw new TypeError(
			`Agent: initialState.messages was given, but session ${session.id} already holds ${context.messages.length} messages; ` +
				"pass the transcript in one place (a session restores its own messages)",
		);
	}
	let model = initial.model;
	let missingModel: ResumedState["missingModel"];
	if (!model && context.model) {
		model = getModel(context.model.provider as Provider, context.model.modelId);
		if (!model) {
			const { provider, modelId } = context.model;
			const placeholder: Model = {
				id: modelId,
				name: `${provider}/${modelId} (not in the model catalog)`,
				api: "missing-model",
				provider,
				baseUrl: "",
				reasoning: false,
				input: ["text"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: 0,
				maxTokens: 0,
			};
			missingModel = { ref: context.model, placeholder };
			model = placeholder;
		}
	}
	return {
		initial: {
			...initial,
			messages: initial.messages ?? context.messages,
			model,
			thinkingLevel: initial.thinkingLevel ?? context.thinkingLevel,
			systemPrompt: initial.systemPrompt ?? context.systemPrompt,
		},
		recorded: { model: context.model, thinkingLevel: context.thinkingLevel ?? "off", systemPrompt: context.systemPrompt ?? "" },
		missingModel,
	};
}

/** The error a resumed agent's run ends with when its session's model is not in the catalog. */
export function missingModelText(sessionId: string, ref: SessionModelRef): string {
	return (
		`session ${sessionId} last used model ${ref.provider}/${ref.modelId}, which is not in the model catalog; ` +
		"set agent.state.model (or pass initialState.model) to continue"
	);
}
