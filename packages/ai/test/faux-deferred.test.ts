/**
 * The scripted (faux) provider defers, so that an app can test its deferred flow offline:
 * `deferred: true` takes the next queued reply as a job and ends `deferred` with a handle;
 * `fetchDeferred` and `streamDeferred` redeem it by the polling rules of every deferred API
 * (running for `deferredChecks` status checks, or until `finishDeferred`); `cancelDeferred`
 * cancels it, idempotently.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage, fauxText, fauxThinking, type FauxProviderRegistration, registerFauxProvider } from "../src/providers/faux.js";
import { stream } from "../src/stream.js";
import { cancelDeferred, fetchDeferred, streamDeferred } from "../src/stream-deferred.js";
import { assertEventProtocol, recordEvents } from "../src/testing/index.js";
import type { Context, DeferredHandle } from "../src/types.js";

const context: Context = { messages: [{ role: "user", content: "Name three primes.", timestamp: 1 }] };

let faux: FauxProviderRegistration | undefined;
afterEach(() => faux?.unregister());

/** Registers a faux provider with one queued reply and submits it deferred; returns the saved handle. */
async function submit(options: Parameters<typeof registerFauxProvider>[0] = {}): Promise<DeferredHandle> {
	faux = registerFauxProvider(options);
	faux.setResponses([fauxAssistantMessage([fauxThinking("small ones"), fauxText("2, 3 and 5.")])]);
	const recorded = await recordEvents(stream(faux.getModel(), context, { deferred: true }));
	expect(recorded.events.map((event) => event.type)).toEqual(["start", "done"]);
	const placeholder = assertEventProtocol(recorded).message;
	expect(placeholder.stopReason).toBe("deferred");
	expect(placeholder.content).toEqual([]);
	// A handle is plain JSON: saved anywhere, read back in a later step of the app.
	return JSON.parse(JSON.stringify(placeholder.deferred)) as DeferredHandle;
}

describe("deferred: true on the faux provider", () => {
	it("takes the next queued reply as a job and ends deferred with its handle", async () => {
		const handle = await submit();
		expect(handle).toEqual({ provider: "faux", api: "faux", modelId: "faux-1", id: expect.stringMatching(/^faux_job_\d+$/) });
		expect(faux?.getPendingResponseCount()).toBe(0);
		expect(faux?.state.callCount).toBe(1);
		expect(faux?.getDeferredJobs()).toEqual([{ id: handle.id, status: "running", checks: 0 }]);
	});

	it("fetchDeferred finds it running for deferredChecks checks, then the whole reply", async () => {
		const handle = await submit({ deferredChecks: 1 });
		const first = await fetchDeferred(faux!.getModel(), handle);
		expect(first.stopReason).toBe("deferred");
		expect(first.deferred).toEqual(handle);
		const reply = await fetchDeferred(faux!.getModel(), first.deferred!);
		expect(reply.stopReason).toBe("stop");
		expect(reply.content).toEqual([
			{ type: "thinking", thinking: "small ones" },
			{ type: "text", text: "2, 3 and 5." },
		]);
		expect(faux?.getDeferredJobs()).toEqual([{ id: handle.id, status: "done", checks: 2 }]);
	});

	it("streamDeferred polls until the job ends and streams the reply as the provider would", async () => {
		const handle = await submit({ deferredChecks: 2, tokenSize: { min: 1, max: 2 } });
		const recorded = await recordEvents(streamDeferred(faux!.getModel(), handle, { pollIntervalMs: 1 }));
		const { message } = assertEventProtocol(recorded);
		expect(message.stopReason).toBe("stop");
		expect(recorded.events.filter((event) => event.type === "text_delta").length).toBeGreaterThan(1);
		expect(faux?.getDeferredJobs()[0]?.checks).toBe(3);
	});

	it("maxWaitMs passing first ends the reply deferred again, and finishDeferred ends the job", async () => {
		const handle = await submit({ deferredChecks: 1_000 });
		const waited = await streamDeferred(faux!.getModel(), handle, { pollIntervalMs: 5, maxWaitMs: 20 }).result();
		expect(waited.stopReason).toBe("deferred");
		faux?.finishDeferred(handle.id);
		const reply = await fetchDeferred(faux!.getModel(), handle);
		expect(reply.stopReason).toBe("stop");
	});

	it("cancelDeferred cancels a running job, idempotently; its reply is an error saying so", async () => {
		const handle = await submit({ deferredChecks: 5 });
		await cancelDeferred(faux!.getModel(), handle);
		await expect(cancelDeferred(faux!.getModel(), handle)).resolves.toBeUndefined();
		const reply = await fetchDeferred(faux!.getModel(), handle);
		expect(reply.stopReason).toBe("error");
		expect(reply.errorMessage).toBe(`The deferred job ${handle.id} was cancelled before it ended.`);
		expect(faux?.getDeferredJobs()[0]?.status).toBe("cancelled");
	});

	it("a job that ended stays ended when cancelled", async () => {
		const handle = await submit();
		expect((await fetchDeferred(faux!.getModel(), handle)).stopReason).toBe("stop");
		await cancelDeferred(faux!.getModel(), handle);
		expect(faux?.getDeferredJobs()[0]?.status).toBe("done");
	});

	it("an abort while waiting ends the redemption aborted, the job running on", async () => {
		const handle = await submit({ deferredChecks: 1_000 });
		const controller = new AbortController();
		const events = streamDeferred(faux!.getModel(), handle, { pollIntervalMs: 10_000, signal: controller.signal });
		setTimeout(() => controller.abort(), 1);
		const message = await events.result();
		expect(message.stopReason).toBe("aborted");
		expect(faux?.getDeferredJobs()[0]?.status).toBe("running");
	});

	it("a handle this registration never gave ends with an error naming it", async () => {
		await submit();
		const message = await fetchDeferred(faux!.getModel(), { provider: "faux", api: "faux", modelId: "faux-1", id: "faux_job_unknown" });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("has no deferred job faux_job_unknown");
	});
});
