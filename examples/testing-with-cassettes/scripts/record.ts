/**
 * Records the cassette that test/assistant.test.ts replays.
 *
 * With a real key, the upstream would be https://api.anthropic.com and the key yours:
 *   ANTHROPIC_API_KEY=sk-ant-… PI_CASSETTE_MODE=record pnpm test
 * re-records through `useCassette`. This machine has no provider, so this script stands one in:
 * a replay server serving a real recorded Anthropic stream from @pi/fixtures.
 */
import { join } from "node:path";
import { sseResponse, startRecorder, startReplayServer } from "@pi/ai/testing";
import { fixtures } from "@pi/fixtures";
import { ask, claude } from "../src/assistant.js";

const provider = await startReplayServer({ responses: [sseResponse(fixtures.load("anthropic-messages", "text-raw-padded"), { chunking: { seed: 7, minChunkBytes: 16, maxChunkBytes: 120, delayMs: 20 } })] });
const cassette = join(import.meta.dirname, "..", "test", "__cassettes__", "assistant", "adds-two-numbers");
const recorder = await startRecorder({ upstream: provider.url, cassette, mode: "record" });
const answer = await ask(claude(recorder.url), "What is 4200 + 42?", { apiKey: "sk-ant-api03-EXAMPLE-recording-key" });
await recorder.close();
await provider.close();
console.log(`recorded ${recorder.recorded} interaction(s) into ${cassette}: ${JSON.stringify(answer)}`);
