import { SessionLockedError, type SessionEntry } from "@pi/agent-core";
import { createPostgresSessionStore } from "@pi/session-postgres";
import { testPostgres } from "@pi/session-postgres/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkTranscript } from "../workers/check-transcript.js";
import { promptJob } from "../workers/prompt-job.js";
import { runPromptJob } from "../workers/run-prompt-job.js";
import { registerScriptedModel, reply } from "../workers/scripted-model.js";
import { arithmeticTools } from "../workers/tools.js";

let server: Awaited<ReturnType<typeof testPostgres>>;
let store: ReturnType<typeof createPostgresSessionStore>;
const { model, refill } = registerScriptedModel();
const context = () => ({ store, model, tools: arithmeticTools() });
beforeAll(async () => {
	server = await testPostgres();
	store = createPostgresSessionStore({ connectionString: server.url, schema: `jobs_${Date.now().toString(36)}` });
}, 120_000);
afterAll(async () => {
	await store?.close();
	await server?.stop();
});

async function entriesOf(sessionId: string): Promise<SessionEntry[]> {
	const list: SessionEntry[] = [];
	for await (const entry of (await store.storage(sessionId).load()).entries) list.push(entry);
	return list;
}

describe("one prompt job", () => {
	it("runs its turn once: the same job again (a retry) appends nothing", async () => {
		const job = promptJob("run", "idempotent", 1, 1);
		refill();
		expect(await runPromptJob(job, context())).toBe("ran");
		const after = await entriesOf("idempotent");
		expect(await runPromptJob(job, context())).toBe("already-done");
		expect(await entriesOf("idempotent")).toEqual(after);
		expect(checkTranscript(after, "idempotent", "run", 1)).toEqual({ problems: [], interruptedResults: 0 });
	});

	it("resumes a turn whose worker died inside its tools: one interrupted result per cut-off call, and the turn goes on", async () => {
		const job = promptJob("run", "crashed", 1, 1);
		// What the killed worker had committed: the prompt (with its key) and the reply calling two tools.
		const crashed = await store.open("crashed");
		const prompt = { role: "user" as const, content: job.prompt, timestamp: 1 };
		await crashed.appendMessage(prompt, { idempotencyKey: job.idempotencyKey });
		await crashed.appendMessage(reply({ messages: [prompt] }));
		await crashed.close();
		refill();
		expect(await runPromptJob(job, context())).toBe("ran");
		const entries = await entriesOf("crashed");
		expect(checkTranscript(entries, "crashed", "run", 1)).toEqual({ problems: [], interruptedResults: 2 });
		expect(entries.filter((entry) => entry.type === "message" && entry.message.role === "user")).toHaveLength(1);
	});

	it("is refused while another worker drives the session, so the queue retries it later", async () => {
		const holder = await store.open("busy");
		refill();
		await expect(runPromptJob(promptJob("run", "busy", 1, 1), context())).rejects.toBeInstanceOf(SessionLockedError);
		await holder.close();
		expect(await runPromptJob(promptJob("run", "busy", 1, 1), context())).toBe("ran");
	});
});
