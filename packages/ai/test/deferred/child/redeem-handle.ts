// Run by handle-json.test.ts in a child process: reads a handle written as JSON by the parent,
// redeems it against the parent's replay server (argv[2]) and prints the final message as JSON.
import { readFileSync } from "node:fs";
import { streamDeferred } from "../../../src/index.js";
import type { DeferredHandle, Model } from "../../../src/types.js";

const [origin, handlePath] = process.argv.slice(2);
if (!origin || !handlePath) throw new Error("usage: redeem-handle.ts <server origin> <handle.json>");
const handle = JSON.parse(readFileSync(handlePath, "utf8")) as DeferredHandle;
const model: Model<"anthropic-messages"> = {
	id: handle.modelId,
	name: handle.modelId,
	api: "anthropic-messages",
	provider: handle.provider,
	baseUrl: origin,
	reasoning: true,
	input: ["text"],
	cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
	contextWindow: 200_000,
	maxTokens: 8_192,
};
const message = await streamDeferred(model, handle, { apiKey: "sk-test-deferred-0123456789", pollIntervalMs: 1 }).result();
console.log(JSON.stringify(message));
