/**
 * Agent loop overhead for one library (argv[2]): `turns` turns of (one tool call → its result →
 * the next call) through the library's own `agentLoop` and its own faux provider with zero
 * latency, after `earlier` messages of prior conversation. Reports wall and CPU time per turn.
 */
import { serveWorker } from "../lib/child.js";
import { LIBRARIES } from "../lib/libraries.js";

const side = /** @type {"ours" | "ref"} */ (process.argv[2]);
const ai = await import(LIBRARIES[side].ai);
const agent = await import(LIBRARIES[side].agent);

// Same delta sizes in characters for both: the reference counts `tokenSize` in tokens of 4
// characters, ours counts characters.
const TOKEN_SIZE = side === "ref" ? { min: 3, max: 5 } : { min: 12, max: 20 };

const TOOL = {
	name: "lookup",
	label: "Lookup",
	description: "Looks up a record by number.",
	// Plain JSON Schema: both libraries validate it with typebox 1.x, which accepts it as is.
	parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
	execute: async (/** @type {string} */ _id, /** @type {{ n: number }} */ params) => ({
		content: [{ type: "text", text: `record ${params.n}: status ok, 3 fields, updated 2024-05-01` }],
		details: { n: params.n },
	}),
};

const USAGE = { input: 120, output: 30, cacheRead: 0, cacheWrite: 0, totalTokens: 150, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const FILLER = "The quick brown fox jumps over the lazy dog; naïve café — 数据 ✓. ";

/**
 * `count` messages of earlier conversation: user → assistant (text + tool call) → tool result, repeated.
 * @param {number} count
 * @param {{ api: string, provider: string, id: string }} model
 */
function earlierMessages(count, model) {
	const messages = [];
	for (let i = 0; messages.length < count; i++) {
		const kind = i % 3;
		const timestamp = 1_700_000_000_000 + i * 1000;
		if (kind === 0) messages.push({ role: "user", content: `Question ${i}: ${FILLER.repeat(3)}`, timestamp });
		else if (kind === 1)
			messages.push({
				role: "assistant",
				content: [
					{ type: "text", text: `Let me check record ${i}. ${FILLER.repeat(2)}` },
					{ type: "toolCall", id: `call_${i}`, name: "lookup", arguments: { n: i } },
				],
				api: model.api,
				provider: model.provider,
				model: model.id,
				usage: USAGE,
				stopReason: "toolUse",
				timestamp,
			});
		else
			messages.push({
				role: "toolResult",
				toolCallId: `call_${i - 1}`,
				toolName: "lookup",
				content: [{ type: "text", text: `record ${i - 1}: ${FILLER.repeat(4)}` }],
				isError: false,
				timestamp,
			});
	}
	return messages;
}

serveWorker({
	/** @param {{ earlier: number, turns: number }} payload */
	async run({ earlier, turns }) {
		const faux = ai.registerFauxProvider({ tokenSize: TOKEN_SIZE });
		try {
			const model = faux.getModel();
			const replies = [];
			for (let i = 0; i < turns; i++) {
				replies.push(ai.fauxAssistantMessage([ai.fauxToolCall("lookup", { n: i }, { id: `turn_${i}` })], { stopReason: "toolUse" }));
			}
			replies.push(ai.fauxAssistantMessage("All records checked."));
			faux.setResponses(replies);
			const context = { systemPrompt: "You are a careful assistant.", messages: earlierMessages(earlier, model), tools: [TOOL] };
			const prompt = { role: "user", content: "Check the records one by one.", timestamp: Date.now() };
			const config = {
				model,
				convertToLlm: (/** @type {any[]} */ messages) => messages.filter((m) => m.role === "user" || m.role === "assistant" || m.role === "toolResult"),
			};
			globalThis.gc?.();
			let toolEnds = 0;
			const cpu0 = process.cpuUsage();
			const t0 = process.hrtime.bigint();
			const events = agent.agentLoop([prompt], context, config);
			for await (const event of events) if (event.type === "tool_execution_end") toolEnds++;
			const messages = await events.result();
			const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
			const cpu = process.cpuUsage(cpu0);
			if (toolEnds !== turns) throw new Error(`${side}: expected ${turns} tool executions, saw ${toolEnds}`);
			if (faux.getPendingResponseCount() !== 0) throw new Error(`${side}: ${faux.getPendingResponseCount()} scripted replies left`);
			return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, msPerTurn: wallMs / (turns + 1), newMessages: messages.length };
		} finally {
			faux.unregister();
		}
	},
});
