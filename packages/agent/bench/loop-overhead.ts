/**
 * Loop overhead per turn, with zero-latency scripted replies.
 *
 * Each run is 1,000 turns: the model asks for a tool call, the tool answers at once, the model is
 * called again (the last reply just stops). The transcript starts with 500 or 5,000 earlier
 * messages, so the per-turn figures show whether the loop's cost grows with the transcript. The
 * only work that should grow is the default `convertToLlm` (one pass over the transcript per
 * model call, which any loop must do): per-turn cost may grow linearly, never faster.
 *
 * Measured paths: `runAgentLoop` with a no-op sink (the loop alone), and `Agent` with one
 * listener (the loop plus state updates and listener calls).
 *
 * Run: `npx tsx --conditions=development packages/agent/bench/loop-overhead.ts` from the repo root
 * (or without the flag after `pnpm build`).
 */
import {
	type AssistantMessage,
	AssistantMessageBuilder,
	type AssistantMessageEventStream,
	type Context,
	type Model,
	preloadToolValidator,
} from "@pi/ai";
import { Type } from "typebox";
import { Agent, type AgentMessage, type AgentTool, defaultConvertToLlm, runAgentLoop, type StreamFn } from "../src/index.js";

const TURNS = 1_000;
const HISTORY_SIZES = [500, 5_000];
const REPEATS = 5;

const model: Model<string> = {
	id: "bench",
	name: "bench",
	api: "bench",
	provider: "bench",
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1_000_000,
	maxTokens: 1_000,
};

const params = Type.Object({ n: Type.Number() });
const tool: AgentTool<typeof params, { n: number }> = {
	name: "tick",
	label: "Tick",
	description: "Returns its argument.",
	parameters: params,
	execute: async (_id, { n }) => ({ content: [{ type: "text", text: String(n) }], details: { n } }),
};

/** Replies at once: a tool call for each turn but the last, which stops. Streams like a provider would. */
function scriptedReplies(turns: number): StreamFn {
	let call = 0;
	return (replyModel: Model<any>, _context: Context): AssistantMessageEventStream => {
		call++;
		const builder = new AssistantMessageBuilder(replyModel);
		if (call < turns) {
			const index = builder.startToolCall(`call-${call}`, "tick");
			builder.appendToolCallArguments(index, `{"n":${call}}`);
			builder.end(index);
			builder.finish("toolUse");
		} else {
			const index = builder.startText();
			builder.appendText(index, "done");
			builder.end(index);
			builder.finish("stop");
		}
		return builder.stream;
	};
}

function history(size: number): AgentMessage[] {
	const messages: AgentMessage[] = [];
	for (let i = 0; i < size; i++) {
		if (i % 2 === 0) messages.push({ role: "user", content: `question ${i}`, timestamp: i });
		else {
			const reply: AssistantMessage = {
				role: "assistant",
				content: [{ type: "text", text: `answer ${i}` }],
				api: "bench",
				provider: "bench",
				model: "bench",
				usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
				stopReason: "stop",
				timestamp: i,
			};
			messages.push(reply);
		}
	}
	return messages;
}

async function timeLoop(historySize: number): Promise<number> {
	const messages = history(historySize);
	const started = performance.now();
	const added = await runAgentLoop(
		[{ role: "user", content: "go", timestamp: 0 }],
		{ systemPrompt: "", messages, tools: [tool] },
		{ model, convertToLlm: defaultConvertToLlm },
		() => {},
		undefined,
		scriptedReplies(TURNS),
	);
	const elapsed = performance.now() - started;
	if (added.length !== 1 + TURNS + (TURNS - 1)) throw new Error(`unexpected run: ${added.length} messages`);
	return elapsed;
}

async function timeAgent(historySize: number): Promise<number> {
	const agent = new Agent({ initialState: { model, tools: [tool], messages: history(historySize) }, streamFn: scriptedReplies(TURNS) });
	let events = 0;
	agent.subscribe(() => {
		events++;
	});
	const started = performance.now();
	await agent.prompt("go");
	const elapsed = performance.now() - started;
	if (agent.state.messages.length !== historySize + 1 + TURNS + (TURNS - 1)) throw new Error("unexpected run");
	if (events === 0) throw new Error("no events");
	return elapsed;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] as number;
}

async function measure(name: string, run: (size: number) => Promise<number>): Promise<number[]> {
	await run(100); // warm up the JIT and the validator cache
	const perTurn: number[] = [];
	for (const size of HISTORY_SIZES) {
		const samples: number[] = [];
		for (let i = 0; i < REPEATS; i++) samples.push(await run(size));
		const microseconds = (median(samples) / TURNS) * 1_000;
		perTurn.push(microseconds);
		console.log(`${name.padEnd(12)} ${String(size).padStart(5)} earlier messages: ${microseconds.toFixed(1).padStart(7)} µs per turn (median of ${REPEATS} runs of ${TURNS} turns)`);
	}
	return perTurn;
}

await preloadToolValidator();
const loop = await measure("runAgentLoop", timeLoop);
const agent = await measure("Agent", timeAgent);
const sizeRatio = (HISTORY_SIZES[1] as number) / (HISTORY_SIZES[0] as number);
for (const [name, figures] of [["runAgentLoop", loop], ["Agent", agent]] as const) {
	const ratio = (figures[1] as number) / (figures[0] as number);
	const verdict = ratio <= sizeRatio ? "at most linear" : "FASTER THAN LINEAR";
	console.log(`${name}: per-turn cost ×${ratio.toFixed(2)} for ×${sizeRatio} the history (${verdict})`);
	if (ratio > sizeRatio) process.exitCode = 1;
}
