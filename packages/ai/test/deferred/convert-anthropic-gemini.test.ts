/**
 * The non-streaming converters of Anthropic Messages (a batch row's `message`) and Gemini (a
 * batch's inline `GenerateContentResponse`) give exactly the message the stream of the same
 * reply gives, for every recorded capture: the whole objects are built from the captures' events.
 */
import { describe, expect, it } from "vitest";
import { convertMessageObject } from "../../src/providers/anthropic-messages/convert-response.js";
import { convertGenerateContentResponse } from "../../src/providers/google-generative-ai/convert-response.js";
import { listFixtures, type ReplayServer } from "../../src/testing/index.js";
import { anthropicMessageFromCapture, anthropicModel, builderFor, comparable, geminiModel, geminiResponseFromCapture, streamedReply } from "./helpers.js";

const OFFLINE = { url: "http://127.0.0.1:9" } as ReplayServer;

/** Gemini ids made for calls without one are random; the same sequence on both sides compares them. */
function countingIds(): (name: string) => string {
	let n = 0;
	return (name) => `${name}_${++n}_fixedid0`;
}

describe("convertMessageObject (Anthropic)", () => {
	const names = listFixtures("anthropic-messages").map((fixture) => fixture.name);
	it.each(names)("%s: the whole message gives the streamed message", async (name) => {
		const streamed = await streamedReply("anthropic-messages", name);
		const builder = builderFor(anthropicModel(OFFLINE));
		convertMessageObject(builder, anthropicMessageFromCapture(name));
		expect(comparable(builder.message)).toEqual(comparable(streamed));
	});
});

describe("convertGenerateContentResponse (Gemini)", () => {
	const names = listFixtures("google-generative-ai").map((fixture) => fixture.name);
	it.each(names)("%s: the whole response gives the streamed message", async (name) => {
		const streamed = await streamedReply("google-generative-ai", name);
		const builder = builderFor(geminiModel(OFFLINE));
		convertGenerateContentResponse(builder, geminiResponseFromCapture(name), countingIds());
		const normalize = (message: typeof streamed) => {
			const copy = comparable(message);
			let n = 0;
			for (const block of copy.content) if (block.type === "toolCall" && /_\d+_[0-9a-z]{8}$/.test(block.id)) block.id = `${block.name}_${++n}`;
			return copy;
		};
		expect(normalize(builder.message)).toEqual(normalize(streamed));
	});
});
