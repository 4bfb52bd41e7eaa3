/**
 * A long-lived worker that streams replies with one library (`ours` or `ref`, argv[2]) through its
 * public `stream()`. Each `run` makes the requests the replay server has queued and reports wall
 * time, CPU time (process.cpuUsage: this process only, the server lives elsewhere) and a summary
 * of the final messages, so the orchestrator can check both libraries decoded the same thing.
 */
import { serveWorker } from "../lib/child.js";
import { LIBRARIES } from "../lib/libraries.js";
import { benchContext, benchModel, STREAM_OPTIONS } from "../lib/models.js";
import { realisticJson } from "../lib/large-args.js";

const side = /** @type {"ours" | "ref"} */ (process.argv[2]);
const lib = await import(LIBRARIES[side].ai);

/** Block counts and content sizes of a final message. @param {any} message */
function summarizeMessage(message) {
	const summary = { stopReason: message.stopReason, errorMessage: message.errorMessage, text: 0, thinking: 0, toolCalls: 0, argsChars: 0 };
	for (const block of message.content) {
		if (block.type === "text") summary.text += block.text.length;
		else if (block.type === "thinking") summary.thinking += block.thinking.length;
		else if (block.type === "toolCall") {
			summary.toolCalls++;
			summary.argsChars += JSON.stringify(block.arguments).length;
		}
	}
	return summary;
}

serveWorker({
	/**
	 * @param {{ api: string, url: string, requests: number, checkArgsBytes?: number }} payload
	 */
	async run({ api, url, requests, checkArgsBytes }) {
		const model = benchModel(api, url);
		const context = benchContext();
		let events = 0;
		let last;
		const cpu0 = process.cpuUsage();
		const t0 = process.hrtime.bigint();
		for (let i = 0; i < requests; i++) {
			const s = lib.stream(model, context, STREAM_OPTIONS);
			for await (const _event of s) events++;
			last = await s.result();
			if (last.stopReason === "error" || last.stopReason === "aborted") throw new Error(`${side} ${api}: ${last.stopReason}: ${last.errorMessage}`);
		}
		const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
		const cpu = process.cpuUsage(cpu0);
		const summary = summarizeMessage(last);
		if (checkArgsBytes !== undefined) {
			const expected = JSON.stringify(JSON.parse(realisticJson(checkArgsBytes)));
			const call = last.content.find((/** @type {any} */ block) => block.type === "toolCall");
			if (JSON.stringify(call?.arguments) !== expected) throw new Error(`${side}: large tool-call arguments decoded wrongly`);
		}
		return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, libraryEvents: events, summary };
	},
});
