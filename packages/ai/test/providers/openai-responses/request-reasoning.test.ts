/**
 * Golden request bodies for reasoning: `streamSimple`'s level becomes `reasoning.effort` with a
 * summary request and encrypted reasoning included; models that cannot reason get nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import { captureRequest, responsesModel, userContext } from "./helpers.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(async () => {
	await server.close();
});

const INPUT = [{ role: "user", content: [{ type: "input_text", text: "Hello" }] }];

describe("request body: reasoning", () => {
	it("streamSimple maps each level to reasoning.effort with summary auto and encrypted content", async () => {
		for (const level of ["low", "medium", "high"] as const) {
			const { body } = await captureRequest(server, userContext(), { reasoning: level }, responsesModel(server), "streamSimple");
			expect(body).toEqual({
				model: "gpt-5",
				stream: true,
				store: false,
				input: INPUT,
				reasoning: { effort: level, summary: "auto" },
				include: ["reasoning.encrypted_content"],
			});
		}
	});

	it("clamps levels a model lacks: minimal and xhigh on o3, minimal on gpt-5.1, xhigh kept on gpt-5.2", async () => {
		const effort = async (id: string, reasoning: "minimal" | "low" | "xhigh") => {
			const { body } = await captureRequest(server, userContext(), { reasoning }, responsesModel(server, { id }), "streamSimple");
			return (body.reasoning as { effort: string }).effort;
		};
		expect(await effort("o3", "minimal")).toBe("low");
		expect(await effort("o3", "xhigh")).toBe("high");
		expect(await effort("gpt-5", "minimal")).toBe("minimal");
		expect(await effort("gpt-5", "xhigh")).toBe("high");
		expect(await effort("gpt-5.1", "minimal")).toBe("low");
		expect(await effort("gpt-5.1-codex-max", "xhigh")).toBe("xhigh");
		expect(await effort("gpt-5.2", "xhigh")).toBe("xhigh");
		expect(await effort("gpt-5-pro", "low")).toBe("high");
	});

	it("passes levels through unchanged to other servers", async () => {
		const model = responsesModel(server, { id: "deepseek-v4-flash", provider: "deepseek" });
		const { body } = await captureRequest(server, userContext(), { reasoning: "minimal", apiKey: "sk-deepseek-test-key" }, model, "streamSimple");
		expect(body.reasoning).toEqual({ effort: "minimal", summary: "auto" });
	});

	it("sends no reasoning to a model that cannot reason, or when no level is given", async () => {
		const plain = responsesModel(server, { id: "gpt-4o", reasoning: false });
		const none = await captureRequest(server, userContext(), { reasoning: "high" }, plain, "streamSimple");
		expect(none.body).toEqual({ model: "gpt-4o", stream: true, store: false, input: INPUT });
		const full = await captureRequest(server, userContext(), { reasoningEffort: "high" }, plain);
		expect(full.body).toEqual({ model: "gpt-4o", stream: true, store: false, input: INPUT });
		const unset = await captureRequest(server, userContext(), {}, responsesModel(server), "streamSimple");
		expect(unset.body).toEqual({ model: "gpt-5", stream: true, store: false, input: INPUT });
	});

	it("honours reasoningSummary and the compat flag that turns summaries off", async () => {
		const concise = await captureRequest(server, userContext(), { reasoningEffort: "low", reasoningSummary: "concise" });
		expect(concise.body.reasoning).toEqual({ effort: "low", summary: "concise" });
		const off = await captureRequest(server, userContext(), { reasoningEffort: "low", reasoningSummary: null });
		expect(off.body.reasoning).toEqual({ effort: "low" });
		const model = responsesModel(server, { compat: { supportsReasoningSummary: false } });
		const compat = await captureRequest(server, userContext(), { reasoning: "medium" }, model, "streamSimple");
		expect(compat.body.reasoning).toEqual({ effort: "medium" });
		expect(compat.body.include).toEqual(["reasoning.encrypted_content"]);
	});
});
