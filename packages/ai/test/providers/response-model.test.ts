/**
 * `AssistantMessage.responseModel` on every recorded capture of every API: requested under an id
 * that is on no wire, each reply must name the model the capture's own wire data names (a
 * Completions chunk's `model`, a Responses `response.model`, Anthropic's
 * `message_start.message.model`, Gemini's `modelVersion`), and carry none when the capture names
 * none. The expected id is read from the capture's bytes with a plain search, independent of the
 * providers' SSE parsing and stream states.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamAnthropic } from "../../src/providers/anthropic-messages.js";
import { streamGoogle } from "../../src/providers/google-generative-ai.js";
import { streamOpenAICompletions } from "../../src/providers/openai-completions.js";
import { streamOpenAIResponses } from "../../src/providers/openai-responses.js";
import { assertEventProtocol, listFixtures, loadFixture, recordEvents, type ReplayServer, sseResponse, startReplayServer } from "../../src/testing/index.js";
import type { AssistantMessageEventStream, Context } from "../../src/types.js";
import { anthropicModel } from "./anthropic-messages/helpers.js";
import { completionsModel } from "./openai-completions/helpers.js";
import { geminiModel } from "./google-generative-ai/helpers.js";
import { responsesModel } from "./openai-responses/helpers.js";

/** On no capture's wire, so any model id a capture names differs from it. */
const REQUESTED = "requested-alias";
const CONTEXT: Context = { messages: [{ role: "user", content: "Hello", timestamp: 0 }] };

interface ApiCase {
	/** The JSON key that names the answering model in this API's stream. */
	field: string;
	run(server: ReplayServer): AssistantMessageEventStream;
}

const CASES: Record<string, ApiCase> = {
	"openai-completions": {
		field: "model",
		run: (server) => streamOpenAICompletions(completionsModel({ id: REQUESTED, baseUrl: `${server.url}/v1` }), CONTEXT, { apiKey: "sk-test" }),
	},
	"openai-responses": {
		field: "model",
		run: (server) => streamOpenAIResponses(responsesModel(server, { id: REQUESTED }), CONTEXT, { apiKey: "sk-test" }),
	},
	"anthropic-messages": {
		field: "model",
		run: (server) => streamAnthropic(anthropicModel({ id: REQUESTED, baseUrl: server.url }), CONTEXT, { apiKey: "sk-ant-test" }),
	},
	"google-generative-ai": {
		field: "modelVersion",
		run: (server) => streamGoogle(geminiModel(REQUESTED, { baseUrl: `${server.url}/v1beta` }), CONTEXT, { apiKey: "gemini-test" }),
	},
};

/** The first non-empty string value of `"<field>":` in the capture (Azure's first chunk has `""`). */
function wireModel(bytes: Uint8Array, field: string): string | undefined {
	const pattern = new RegExp(`"${field}"\\s*:\\s*"([^"]*)"`, "g");
	for (const match of new TextDecoder().decode(bytes).matchAll(pattern)) if (match[1]) return match[1];
	return undefined;
}

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer({ chunking: { seed: 7, minChunkBytes: 1, maxChunkBytes: 64 } });
});
afterAll(() => server.close());

for (const [api, apiCase] of Object.entries(CASES)) {
	describe(`${api}: responseModel is the model the capture's wire names`, () => {
		for (const { name } of listFixtures(api)) {
			it(name, async () => {
				const bytes = loadFixture(api, name);
				server.reset();
				server.enqueue(sseResponse(bytes));
				const { message } = assertEventProtocol(await recordEvents(apiCase.run(server)));
				expect(message.model).toBe(REQUESTED);
				expect(message.responseModel).toBe(wireModel(bytes, apiCase.field));
			});
		}
	});
}

describe("the captures name a model", () => {
	it("all but Gemini's two blocked-content captures", () => {
		const unnamed = Object.entries(CASES).flatMap(([api, { field }]) =>
			listFixtures(api)
				.filter(({ name }) => wireModel(loadFixture(api, name), field) === undefined)
				.map(({ name }) => `${api}/${name}`),
		);
		expect(unnamed.sort()).toEqual(["google-generative-ai/finish-reason-safety", "google-generative-ai/prompt-blocked-safety"]);
	});
});
