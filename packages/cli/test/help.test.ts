import { describe, expect, it } from "vitest";
import { useTempHome } from "./helpers/cli-test-context.js";
import { runCli } from "./helpers/run-cli.js";

const cli = useTempHome();

describe("--help on every command, with examples", () => {
	const commands: [string[], string][] = [
		[["--help"], "pi-ai: stream any model"],
		[["-h"], "pi-ai: stream any model"],
		[["help"], "pi-ai: stream any model"],
		[["models", "--help"], "pi-ai models: list the models"],
		[["help", "models"], "pi-ai models: list the models"],
		[["keys", "--help"], "pi-ai keys: store API keys"],
		[["keys", "set", "-h"], "pi-ai keys: store API keys"],
		[["sessions", "--help"], "pi-ai sessions: list past conversations"],
		[["show", "--help"], "pi-ai show: print a conversation"],
		[["-m", "anthropic/claude-haiku-4-5", "--help"], "pi-ai: stream any model"],
	];
	for (const [args, title] of commands) {
		it(`pi-ai ${args.join(" ")}`, async () => {
			const result = await runCli(args, { env: cli.home.env() });
			expect(result.code).toBe(0);
			expect(result.stdout.startsWith(title)).toBe(true);
			expect(result.stdout).toMatch(/\nExamples\n {2}(pi-ai|cat|echo) /);
			expect(result.stderr).toBe("");
		});
	}

	it("a prompt after -- may look like a flag or a command", async () => {
		const result = await runCli(["--no-session", "-m", "nosuch/x", "--", "--help"], { env: cli.home.env() });
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('unknown provider "nosuch"'); // it tried to prompt, not to print help
	});
});
