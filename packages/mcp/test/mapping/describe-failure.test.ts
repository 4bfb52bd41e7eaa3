/** How each kind of failure is worded. */
import { describe, expect, it } from "vitest";
import { describeFailure } from "../../src/index.js";

const base = { server: "files", what: 'tools/call "read"', timeoutMs: 5_000 };

describe("describeFailure", () => {
	it("an ended child: exit code or signal, and its last stderr lines", () => {
		expect(describeFailure(new Error("Connection closed"), { ...base, exit: { code: 1, signal: null }, stderr: ["a", "b"] }).message).toBe(
			'MCP server "files" exited with code 1 during tools/call "read". Its last standard error lines:\n  a\n  b',
		);
		expect(describeFailure(new Error("Not connected"), { ...base, exit: { code: null, signal: "SIGKILL" }, stderr: [] }).message).toBe(
			'MCP server "files" was killed by SIGKILL during tools/call "read". It wrote nothing to standard error.',
		);
	});

	it("a timeout names the limit, even when the child was ended after it", () => {
		const timeout = Object.assign(new Error("MCP error -32001: Request timed out"), { code: -32001 });
		expect(describeFailure(timeout, { ...base, exit: { code: null, signal: "SIGTERM" } }).message).toBe('MCP server "files" did not answer tools/call "read" within 5000 ms (timeoutMs).');
	});

	it("HTTP statuses name the URL; 401 and 403 point at the headers", () => {
		const unauthorized = Object.assign(new Error("Streamable HTTP error: Unauthorized"), { code: 401 });
		expect(describeFailure(unauthorized, { ...base, what: "initialize", url: "https://x.test/mcp" }).message).toBe(
			'MCP server "files" at https://x.test/mcp answered HTTP 401 to initialize: check the credentials in `headers` (Streamable HTTP error: Unauthorized).',
		);
		const missing = Object.assign(new Error("Not Found"), { code: 404 });
		expect(describeFailure(missing, { ...base, url: "https://x.test/mcp" }).message).toBe('MCP server "files" at https://x.test/mcp answered HTTP 404 to tools/call "read" (Not Found).');
	});

	it("a missing command, and anything else, with the original as cause", () => {
		const enoent = Object.assign(new Error("spawn nope ENOENT"), { code: "ENOENT" });
		const described = describeFailure(enoent, { ...base, what: "initialize", command: "nope" });
		expect(described.message).toBe('could not start MCP server "files": command "nope" not found (spawn nope ENOENT); check the command and PATH.');
		expect(described.cause).toBe(enoent);
		expect(describeFailure(new Error("boom"), base).message).toBe('MCP server "files" failed tools/call "read": boom');
	});
});
