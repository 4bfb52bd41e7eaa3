/**
 * A server that changes: on `notifications/tools/list_changed` the next `tools()` lists afresh
 * (until then the list is kept), and `onListChanged` tells the app, which can hand the agent the
 * new tools.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { connectMcp, type McpListKind } from "../src/index.js";
import { runScripted, toolEnds } from "./helpers/scripted-agent.js";
import { fixtureStdio } from "./helpers/servers.js";

const work = mkdtempSync(join(tmpdir(), "pi-mcp-list-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("tools/list_changed", () => {
	it("the next tools() after the notification returns the new list, and the agent can use it", async () => {
		const changes: McpListKind[] = [];
		const server = await connectMcp({ ...fixtureStdio(join(work, "log")), onListChanged: (kind) => changes.push(kind) });
		try {
			const before = await server.tools();
			expect(before.map((tool) => tool.name)).toEqual(["crash", "wait-for-cancel", "add-tool"]);
			const { events, run } = runScripted(before, [{ name: "add-tool", arguments: { name: "shiny" } }]);
			await run;
			expect(toolEnds(events).map((end) => end.text)).toEqual(["added shiny"]);
			// The server sends the notification before it answers the call: it has been handled.
			expect(changes).toEqual(["tools"]);
			const after = await server.tools();
			expect(after.map((tool) => tool.name)).toEqual(["crash", "wait-for-cancel", "add-tool", "shiny"]);
			// Without a change, the kept list is served (the same tool definitions, listed once).
			expect((await server.tools()).map((tool) => tool.parameters)).toEqual(after.map((tool) => tool.parameters));

			const second = runScripted(after, [{ name: "shiny", arguments: {} }]);
			await second.run;
			expect(toolEnds(second.events).map((end) => [end.name, end.isError, end.text])).toEqual([["shiny", false, "shiny ran"]]);
		} finally {
			await server.close();
		}
	});
});
