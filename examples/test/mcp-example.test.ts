import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const main = fileURLToPath(new URL("../mcp/main.ts", import.meta.url));
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/_API_KEY$|^PI_|_BASE_URL$|_OAUTH_TOKEN$/.test(key)));

/**
 * examples/mcp/main.ts, offline: it starts server-everything over stdio, runs an agent on its
 * tools with the scripted model, then passes one of the server's prompts to the agent.
 */
describe("the MCP example", () => {
	it("lists the server's offer, runs its tools with live progress, and answers a server prompt", async () => {
		const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "--conditions=development", main], { env, timeout: 90_000 });
		expect(stderr).toBe("");
		expect(stdout.trim().split("\n")).toEqual([
			"Connected to Everything Reference Server 2.0.0",
			"Tools: everything_echo, everything_get-sum, everything_trigger-long-running-operation",
			expect.stringMatching(/^Resources: \d+; prompts: simple-prompt, args-prompt, completable-prompt, resource-prompt$/),
			'→ everything_get-sum {"a":19,"b":23}',
			"← everything_get-sum: The sum of 19 and 23 is 42.",
			'→ everything_trigger-long-running-operation {"duration":0.6,"steps":3}',
			"  … progress 1/3",
			"  … progress 2/3",
			"  … progress 3/3",
			"← everything_trigger-long-running-operation: Long running operation completed. Duration: 0.6 seconds, Steps: 3.",
			"Assistant: 19 + 23 is 42, and the long operation finished.",
			"Assistant: Lyon is in the Auvergne-Rhône-Alpes region; expect mild weather.",
		]);
	});
});
