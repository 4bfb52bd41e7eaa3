/**
 * `--approve`: every tool call waits for a yes from the person at the terminal. Tools that declare
 * `needsApproval` themselves are asked about with or without the flag. Off a terminal nobody can
 * answer, so such calls are refused, and standard error says why.
 */
import { createInterface } from "node:readline";
import type { Agent, AgentTool } from "@pi/agent-core";
import { createStyle } from "../terminal/style.js";

/** The reason a call gets when pi-ai cannot ask (the model reads it in the error result). */
export const NO_TERMINAL_REASON = "not approved: pi-ai is not on a terminal, so nobody could be asked";

/** `tools`, each asking for approval before every call (for `--approve`). */
export function withApproval(tools: readonly AgentTool<any>[]): AgentTool<any>[] {
	return tools.map((tool) => Object.assign(Object.create(Object.getPrototypeOf(tool) as object) as AgentTool<any>, tool, { needsApproval: true }));
}

/**
 * While calls wait for approval: asks about each one (y/N on standard error, the answer from a
 * terminal on standard input), records the answers, and continues the agent, until none waits.
 * Off a terminal every waiting call is rejected instead. Resolves false when the person pressed
 * Ctrl-C at a question: the calls then stay pending in the session.
 */
export async function settleApprovals(agent: Agent, io: { stdin: NodeJS.ReadStream; stderr: NodeJS.WriteStream } = process): Promise<boolean> {
	const style = createStyle(io.stderr);
	while (agent.state.pendingApprovals.length > 0) {
		for (const call of agent.state.pendingApprovals) {
			if (!io.stdin.isTTY) {
				io.stderr.write(`${style.yellow(`pi-ai: refused ${call.toolName}: it needs approval, and standard input is not a terminal to ask on`)}\n`);
				await agent.reject(call.toolCallId, { reason: NO_TERMINAL_REASON });
				continue;
			}
			const answer = await ask(io, `${style.cyan(`? run ${call.toolName}`)} ${style.dim(JSON.stringify(call.arguments))} [y/N] `);
			if (answer === undefined) return false;
			if (/^y(es)?$/i.test(answer.trim())) await agent.approve(call.toolCallId);
			else await agent.reject(call.toolCallId, { reason: "the user said no" });
		}
		await agent.continue();
	}
	return true;
}

/** One line typed at the terminal, or undefined on Ctrl-C or end of input. */
function ask(io: { stdin: NodeJS.ReadStream; stderr: NodeJS.WriteStream }, question: string): Promise<string | undefined> {
	const prompt = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
	return new Promise((resolve) => {
		let answer: string | undefined;
		prompt.on("SIGINT", () => prompt.close());
		prompt.on("close", () => {
			if (answer === undefined) io.stderr.write("\n");
			resolve(answer);
		});
		prompt.question(question, (line) => {
			answer = line;
			prompt.close();
		});
	});
}
