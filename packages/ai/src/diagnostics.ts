/**
 * Diagnostics: structured notes an assistant message can carry about what went wrong or was
 * recovered while it was produced (a retry, a repaired argument, a cleanup that threw). They are
 * data for logs and support, never shown to the model. Names and shapes follow
 * `@mariozechner/pi-ai`, so code that writes or reads them moves over unchanged.
 */

/** An error reduced to plain, serialisable fields. */
export interface DiagnosticErrorInfo {
	name?: string;
	message: string;
	stack?: string;
	code?: string | number;
}

/** One note on a message: what kind (`type`), when, the error if any, and free-form details. */
export interface AssistantMessageDiagnostic {
	type: string;
	/** Epoch milliseconds. */
	timestamp: number;
	error?: DiagnosticErrorInfo;
	details?: Record<string, unknown>;
}

/**
 * A one-line text for anything thrown: an `Error`'s message (or its name when the message is
 * empty), a string as it is, anything else through `String()`.
 *
 * @example
 * formatThrownValue(new TypeError("bad")) // "bad"
 * formatThrownValue(42) // "42"
 */
export function formatThrownValue(value: unknown): string {
	if (value instanceof Error) return value.message || value.name;
	if (typeof value === "string") return value;
	return String(value);
}

/**
 * The plain fields of a thrown value. Non-errors get `name: "ThrownValue"`; a `code` is kept
 * only when it is a string or a number (Node's `ECONNRESET`, an HTTP status).
 */
export function extractDiagnosticError(error: unknown): DiagnosticErrorInfo {
	if (!(error instanceof Error)) return { name: "ThrownValue", message: formatThrownValue(error) };
	const code = (error as { code?: unknown }).code;
	const info: DiagnosticErrorInfo = { message: error.message || error.name };
	if (error.name) info.name = error.name;
	if (error.stack !== undefined) info.stack = error.stack;
	if (typeof code === "string" || typeof code === "number") info.code = code;
	return info;
}

/**
 * A diagnostic of kind `type` for `error`, stamped now.
 *
 * @example
 * const note = createAssistantMessageDiagnostic("tool_arguments_repaired", err, { toolCallId: "call_1" });
 */
export function createAssistantMessageDiagnostic(
	type: string,
	error: unknown,
	details?: Record<string, unknown>,
): AssistantMessageDiagnostic {
	const diagnostic: AssistantMessageDiagnostic = { type, timestamp: Date.now(), error: extractDiagnosticError(error) };
	if (details !== undefined) diagnostic.details = details;
	return diagnostic;
}

/**
 * Appends `diagnostic` to `message.diagnostics`, replacing the array rather than pushing into it,
 * so that a snapshot of the message taken earlier (an event's `partial`) keeps its own list.
 */
export function appendAssistantMessageDiagnostic<T extends { diagnostics?: AssistantMessageDiagnostic[] }>(
	message: T,
	diagnostic: AssistantMessageDiagnostic,
): void {
	message.diagnostics = [...(message.diagnostics ?? []), diagnostic];
}
