/**
 * `@pi/ai/testing/vitest`: one cassette per test, beside the test file, with the recorder started
 * for the test and closed after it. The only entry of `@pi/ai` that imports vitest (an optional
 * peer dependency), so `@pi/ai/testing` works under any test runner.
 */
import { basename, dirname, join } from "node:path";
import { expect, onTestFinished } from "vitest";
import { type Recorder, type RecorderOptions, startRecorder } from "./recorder.js";

/** Options of {@link useCassette}: those of `startRecorder`, with the folder chosen for you. */
export interface UseCassetteOptions extends Omit<RecorderOptions, "cassette"> {
	/** Use this folder instead of `<test folder>/__cassettes__/<test file>/<name>`. */
	dir?: string;
}

/**
 * Starts a recorder (see `startRecorder`) on the cassette
 * `<folder of the test file>/__cassettes__/<test file name>/<name>`, and closes it when the test
 * ends. `name` defaults to the test's name, made file-safe (its full name, describe blocks included: `greets > in French` gives `greets-in-french`). Call it inside a test.
 *
 * With no upstream, only `replay` and `auto` (replaying what exists) make sense; set
 * `PI_CASSETTE_MODE=record` with real keys to record again.
 *
 * @example
 * ```ts
 * import { useCassette } from "@pi/ai/testing/vitest";
 *
 * it("answers", async () => {
 *   const cassette = await useCassette("answers", { upstream: "https://api.anthropic.com" });
 *   const reply = await complete({ ...model, baseUrl: cassette.url }, context, { apiKey: process.env.ANTHROPIC_API_KEY ?? "replayed" });
 *   expect(reply.stopReason).toBe("stop");
 * });
 * ```
 */
export async function useCassette(name?: string, options: UseCassetteOptions = {}): Promise<Recorder> {
	const state = expect.getState();
	const testPath = state.testPath;
	if (!testPath || state.currentTestName === undefined) throw new Error("useCassette() must be called inside a test (it needs the test file and name)");
	const testName = name ?? state.currentTestName;
	const file = basename(testPath).replace(/\.(test|spec)\.[cm]?[jt]sx?$/, "");
	const { dir, ...recorderOptions } = options;
	const cassette = dir ?? join(dirname(testPath), "__cassettes__", file, safeName(testName));
	const recorder = await startRecorder({ ...recorderOptions, cassette });
	onTestFinished(() => recorder.close());
	return recorder;
}

/** A test name as a folder name: `greets > in French` → `greets-in-french`. */
function safeName(name: string): string {
	const safe = name
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, "-")
		.replace(/^-+|-+$/g, "")
		.slice(0, 80);
	if (!safe) throw new Error(`useCassette(): cannot make a folder name from ${JSON.stringify(name)}; pass a name`);
	return safe;
}
