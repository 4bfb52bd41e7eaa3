import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { collectEvents } from "../../../src/testing/index.js";
import type { Api, AssistantMessageEvent, Context, Model } from "../../../src/types.js";
import { ADAPTERS, type ProviderAdapter } from "../../reliability/harness/adapters.js";

export { ADAPTERS, type ProviderAdapter };

/** A fresh temporary folder, removed by the returned `remove`. */
export function tempFolder(prefix = "pi-cassette-"): { dir: string; remove: () => void } {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The same question every time, so that a replay matches its recording. */
export const CONTEXT: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "What is 4200 + 42?", timestamp: 0 }] };

/** What a run streamed and ended with, as JSON without the per-run timestamps. */
export async function runOnce(adapter: ProviderAdapter, origin: string, apiKey: string, context: Context = CONTEXT): Promise<{ events: string; message: string; types: string[] }> {
	const model: Model<Api> = adapter.model(origin);
	const { events, message } = await collectEvents(adapter.stream(model, context, { apiKey, maxRetries: 0 }));
	// Gemini sends no tool-call ids, so the provider makes random ones: compare them by order of appearance.
	const ids = adapter.api === "google-generative-ai" ? new Map<string, string>() : undefined;
	return { events: stable(events.map(withoutPartial), ids), message: stable(message, ids), types: events.map((event) => event.type) };
}

/** `partial` is one live object shared by every event: compare the per-event fields instead. */
function withoutPartial(event: AssistantMessageEvent): unknown {
	const { partial: _partial, ...rest } = event as AssistantMessageEvent & { partial?: unknown };
	return rest;
}

function stable(value: unknown, ids?: Map<string, string>): string {
	return JSON.stringify(value, function (this: Record<string, unknown>, key, item) {
		if (key === "timestamp") return 0;
		if (ids && key === "id" && this.type === "toolCall" && typeof item === "string") {
			if (!ids.has(item)) ids.set(item, `generated-id-${ids.size + 1}`);
			return ids.get(item);
		}
		return item;
	});
}

/** Every file under `dir`, with its bytes as latin1 text (keys are ASCII). */
export function filesUnder(dir: string): { path: string; text: string }[] {
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => {
			const path = join(entry.parentPath, entry.name);
			return { path, text: readFileSync(path).toString("latin1") };
		});
}
