import type { ChildExit } from "./stdio-transport.js";

/** What an error message says about where a failure happened. */
export interface FailureContext {
	/** The server's name, as the connection knows it. */
	server: string;
	/** What was being done, e.g. `tools/call "get-sum"` or `initialize`. */
	what: string;
	timeoutMs: number;
	/** How the child process ended, when it ended by itself, not by `close()` (stdio). */
	exit?: ChildExit | undefined;
	/** The child's last standard-error lines (stdio). */
	stderr?: readonly string[];
	/** The command that was started (stdio). */
	command?: string;
	/** The URL without its query (HTTP). */
	url?: string;
	/** Why the HTTP connection was given up (its event stream broke and could not be reopened). */
	lost?: string | undefined;
}

// The SDK's JSON-RPC error codes for a closed connection and a request past its timeout.
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

/**
 * An error from the SDK or the transport as an error that says, in one message, which server,
 * what it was doing and what went wrong: the exit code (or signal) and the last stderr lines of a
 * child that ended, a request past `timeoutMs`, an HTTP status (401 and 403 say to check the
 * credentials in `headers`, whose values are never quoted), a command that does not exist. The
 * original error is the `cause`. Pure.
 *
 * @example
 * ```ts
 * describeFailure(new Error("Connection closed"), { server: "files", what: 'tools/call "read"', timeoutMs: 60_000, exit: { code: 3, signal: null }, stderr: ["boom"] });
 * // MCP server "files" exited with code 3 during tools/call "read". Its last standard error lines:
 * //   boom
 * ```
 */
export function describeFailure(error: unknown, context: FailureContext): Error {
	return new Error(failureText(error, context), { cause: error });
}

function failureText(error: unknown, context: FailureContext): string {
	const server = `MCP server "${context.server}"`;
	const code = (error as { code?: unknown } | undefined)?.code;
	const message = error instanceof Error ? error.message : String(error);
	if (code === "ENOENT" && context.command !== undefined) {
		return `could not start ${server}: command "${context.command}" not found (${message}); check the command and PATH.`;
	}
	if (code === "EACCES" && context.command !== undefined) {
		return `could not start ${server}: command "${context.command}" is not executable (${message}).`;
	}
	// Before the exit: after a timeout the SDK closes the connection, and so ends the child itself.
	if (context.lost !== undefined) {
		return `${server}${context.url ? ` at ${context.url}` : ""} was lost during ${context.what}: its event stream broke and could not be reopened (${context.lost}).`;
	}
	if (code === REQUEST_TIMEOUT) return `${server} did not answer ${context.what} within ${context.timeoutMs} ms (timeoutMs).`;
	if (context.exit) {
		const how = context.exit.signal ? `was killed by ${context.exit.signal}` : `exited with code ${context.exit.code}`;
		const lines = context.stderr ?? [];
		const tail = lines.length > 0 ? ` Its last standard error lines:\n${lines.map((line) => `  ${line}`).join("\n")}` : " It wrote nothing to standard error.";
		return `${server} ${how} during ${context.what}.${tail}`;
	}
	if (typeof code === "number" && code >= 400 && code < 600) {
		const at = context.url ? ` at ${context.url}` : "";
		const hint = code === 401 || code === 403 ? ": check the credentials in `headers`" : "";
		return `${server}${at} answered HTTP ${code} to ${context.what}${hint} (${message}).`;
	}
	if (code === CONNECTION_CLOSED) return `${server} closed the connection during ${context.what} (${message}).`;
	if (code === "ECONNREFUSED" || (error instanceof TypeError && message === "fetch failed")) {
		const cause = (error as { cause?: { code?: string } }).cause?.code ?? code;
		return `${server}${context.url ? ` at ${context.url}` : ""} could not be reached for ${context.what} (${cause ?? message}).`;
	}
	return `${server} failed ${context.what}: ${message}`;
}
