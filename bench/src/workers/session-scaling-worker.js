/**
 * One worker of the scaling benchmark (see ../scaling.js), in a process of its own so that N
 * workers can use N cores. Over IPC: `open` a session in PostgreSQL or a JSONL file, then time
 * `appends` (one message per append, as the Agent appends) or agent `turns` (prompt → tool call
 * → result → answer on the zero-latency faux provider) on it, or time `openAndBuild` of a large
 * session. Times are epoch milliseconds, so the parent can take the span over all workers.
 */
import { Agent, openSession } from "@pi/agent-core";
import { openSessionFile } from "@pi/agent-core/node";
import { fauxAssistantMessage, fauxToolCall, registerFauxProvider } from "@pi/ai";
import { createPostgresSessionStore } from "@pi/session-postgres";
import { serveWorker } from "../lib/child.js";

/** @type {import("@pi/agent-core").Session | undefined} */
let session;
/** @type {import("@pi/session-postgres").PostgresSessionStore | undefined} */
let store;
const now = () => performance.timeOrigin + performance.now();
const faux = registerFauxProvider({ tokenSize: { min: 12, max: 20 } });
const tool = {
	name: "lookup",
	label: "Lookup",
	description: "Looks up a record by number.",
	parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
	execute: async (/** @type {string} */ _id, /** @type {{ n: number }} */ params) => ({ content: [{ type: "text", text: `record ${params.n}: ok` }], details: {} }),
};

/**
 * @param {{ storage: "postgres" | "jsonl", connectionString?: string, schema?: string, synchronousCommit?: boolean, path?: string, durability?: "flush" | "fsync", sessionId: string }} target
 */
async function openTarget(target) {
	if (target.storage === "jsonl") return openSessionFile(/** @type {string} */ (target.path), { durability: target.durability });
	store ??= createPostgresSessionStore({
		connectionString: target.connectionString,
		schema: target.schema,
		poolOptions: { max: 2, ...(target.synchronousCommit === false ? { options: "-c synchronous_commit=off" } : {}) },
	});
	return store.open(target.sessionId);
}

serveWorker({
	async open(/** @type {any} */ target) {
		await session?.close();
		session = await openTarget(target);
		return { entries: session.entryCount };
	},
	async appends(/** @type {{ count: number }} */ { count }) {
		const s = /** @type {import("@pi/agent-core").Session} */ (session);
		const start = now();
		for (let i = 0; i < count; i++) await s.appendMessage({ role: "user", content: `message ${i}: the quick brown fox jumps over the lazy dog`, timestamp: Date.now() });
		return { start, end: now() };
	},
	async turns(/** @type {{ count: number }} */ { count }) {
		const s = /** @type {import("@pi/agent-core").Session} */ (session);
		const agent = new Agent({ session: s, initialState: { model: faux.getModel(), tools: [tool] } });
		const start = now();
		for (let i = 0; i < count; i++) {
			faux.setResponses([fauxAssistantMessage([fauxToolCall("lookup", { n: i })]), fauxAssistantMessage(`Record ${i} is fine.`)]);
			await agent.prompt(`How is record ${i}?`);
		}
		return { start, end: now() };
	},
	async openAndBuild(/** @type {any} */ target) {
		await session?.close();
		session = undefined;
		const start = now();
		const opened = await openTarget(target);
		const context = await opened.buildContext();
		const end = now();
		await opened.close();
		return { start, end, messages: context.messages.length };
	},
	async close() {
		await session?.close();
		session = undefined;
		await store?.close();
		store = undefined;
		return {};
	},
});
