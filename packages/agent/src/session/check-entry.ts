/**
 * The structural check every loaded entry passes: a storage reports what this returns together
 * with its own location (line, byte offset), so the check lives in one place.
 */

/** Returns why `value` is not a well-formed entry, or `undefined` when it is one. */
export function entryShapeProblem(value: unknown): string | undefined {
	if (typeof value !== "object" || value === null || Array.isArray(value)) return "an entry must be a JSON object";
	const entry = value as Record<string, unknown>;
	if (typeof entry.type !== "string" || entry.type === "") return 'the entry has no "type" string';
	if (typeof entry.id !== "string" || entry.id === "") return 'the entry has no "id" string';
	if (entry.parentId !== null && typeof entry.parentId !== "string") return `entry ${entry.id}: "parentId" must be a string or null`;
	if (typeof entry.timestamp !== "number" || !Number.isFinite(entry.timestamp)) return `entry ${entry.id}: "timestamp" must be a number`;
	switch (entry.type) {
		case "message": {
			const message = entry.message as Record<string, unknown> | null | undefined;
			if (typeof message !== "object" || message === null || typeof message.role !== "string") {
				return `entry ${entry.id}: a message entry needs a "message" object with a "role"`;
			}
			return undefined;
		}
		case "model_change":
			return typeof entry.provider === "string" && typeof entry.modelId === "string"
				? undefined
				: `entry ${entry.id}: a model_change needs "provider" and "modelId" strings`;
		case "thinking_level_change":
			return typeof entry.thinkingLevel === "string" ? undefined : `entry ${entry.id}: a thinking_level_change needs "thinkingLevel"`;
		case "system_prompt_change":
			return typeof entry.systemPrompt === "string" ? undefined : `entry ${entry.id}: a system_prompt_change needs "systemPrompt"`;
		case "compaction":
			return typeof entry.summary === "string" && typeof entry.firstKeptEntryId === "string"
				? undefined
				: `entry ${entry.id}: a compaction needs "summary" and "firstKeptEntryId" strings`;
		case "tool_approval_request":
			return typeof entry.toolCallId === "string" && typeof entry.toolName === "string" && isObject(entry.arguments)
				? undefined
				: `entry ${entry.id}: a tool_approval_request needs "toolCallId" and "toolName" strings and an "arguments" object`;
		case "tool_approval_decision":
			if (typeof entry.toolCallId !== "string" || typeof entry.approved !== "boolean") {
				return `entry ${entry.id}: a tool_approval_decision needs a "toolCallId" string and an "approved" boolean`;
			}
			return entry.reason === undefined || typeof entry.reason === "string" ? undefined : `entry ${entry.id}: a tool_approval_decision's "reason" must be a string`;
		case "tool_approval_run":
			return typeof entry.toolCallId === "string" ? undefined : `entry ${entry.id}: a tool_approval_run needs a "toolCallId" string`;
		default:
			return undefined;
	}
}

function isObject(value: unknown): boolean {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
