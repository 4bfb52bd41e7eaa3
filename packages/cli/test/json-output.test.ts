import { loadFixture, sseResponse } from "@pi/ai/testing";
import { expect, it } from "vitest";
import { expectedReply, textOf } from "./helpers/expected-reply.js";
import { runCli } from "./helpers/run-cli.js";
import { useCliTestContext } from "./helpers/cli-test-context.js";

const cli = useCliTestContext();

it("--json prints one event per line, then the result with the final message; stdout holds nothing else", async () => {
	const body = loadFixture("anthropic-messages", "thinking-signature");
	const expected = await expectedReply("anthropic", "claude-haiku-4-5", body);
	cli.server.enqueue(sseResponse(body));
	const result = await runCli(["--json", "-m", "anthropic/claude-haiku-4-5", "--base-url", cli.server.url, "Hi"], { env: cli.home.env({ ANTHROPIC_API_KEY: "test-key" }) });
	expect(result.code).toBe(0);
	const lines = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, any>);
	const types = lines.map((line) => line.type);
	expect(types[0]).toBe("start");
	expect(types.at(-1)).toBe("result");
	expect(types.at(-2)).toBe("message_end");
	expect(types.at(-3)).toBe("done");
	expect(types).toContain("thinking_delta");
	// No line repeats the growing message: deltas only.
	expect(lines.filter((line) => "partial" in line)).toEqual([]);
	const text = lines.filter((line) => line.type === "text_delta").map((line) => line.delta).join("");
	expect(text).toBe(textOf(expected));
	const final = lines.at(-1)!;
	expect(final.message.content).toEqual(expected.content);
	expect(final.message.stopReason).toBe("stop");
	expect(final.usage.output).toBe(expected.usage.output);
	expect(final.usage.cost.total).toBeCloseTo(expected.usage.cost.total, 12);
	// The usage line still goes to stderr, so scripts reading stdout never see it.
	expect(result.stderr).toContain("anthropic/claude-haiku-4-5 · ");
});

it("--quiet drops the usage line", async () => {
	cli.server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
	const result = await runCli(["--quiet", "--base-url", `${cli.server.url}/v1`, "-m", "m", "Hi"], { env: cli.home.env() });
	expect(result.code).toBe(0);
	expect(result.stdout).toBe("The capital of the UK is London.\n");
	expect(result.stderr).toBe("");
});
