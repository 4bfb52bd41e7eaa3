/** include / exclude over a server's tool list. */
import { describe, expect, it } from "vitest";
import { selectTools } from "../../src/index.js";

const tools = ["a", "b", "c"].map((name) => ({ name, inputSchema: { type: "object" as const } }));

describe("selectTools", () => {
	it("keeps the server's order; include first, then exclude", () => {
		expect(selectTools(tools, {}, "s").map((tool) => tool.name)).toEqual(["a", "b", "c"]);
		expect(selectTools(tools, { include: ["c", "a"] }, "s").map((tool) => tool.name)).toEqual(["a", "c"]);
		expect(selectTools(tools, { include: ["a", "b"], exclude: ["b"] }, "s").map((tool) => tool.name)).toEqual(["a"]);
	});

	it("a name the server does not have is an error naming it and the tools there are", () => {
		expect(() => selectTools(tools, { exclude: ["d"] }, "files")).toThrow('tools({ exclude }) of MCP server "files" names "d", which the server does not have. Its tools: "a", "b", "c".');
	});
});
