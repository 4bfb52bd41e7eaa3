/**
 * The setup every CLI test file shares: a replay server on 127.0.0.1 (port 0) for the whole file,
 * emptied before each test, and a fresh private home per test, removed after it. Call it once at
 * the top of a file; the getters give the current server and home inside tests.
 *
 * @example
 * ```ts
 * const cli = useCliTestContext();
 * it("…", async () => {
 *   cli.server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
 *   const result = await runCli(["--base-url", `${cli.server.url}/v1`, "-m", "m", "Hi"], { env: cli.home.env() });
 *   expect(cli.server.requests).toHaveLength(1);
 * });
 * ```
 */
import { type ReplayServer, startReplayServer } from "@pi/ai/testing";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { type TempHome, tempHome } from "./run-cli.js";

/** The current home of a file that called {@link useTempHome}. */
export interface HomeContext {
	readonly home: TempHome;
}

/** The current server and home of a file that called {@link useCliTestContext}. */
export interface CliTestContext extends HomeContext {
	/** Counts every request it gets (`requests`), so a test can assert that none was sent. */
	readonly server: ReplayServer;
}

/** A fresh private home for each test of the file (no server). */
export function useTempHome(): HomeContext {
	let home: TempHome | undefined;
	beforeEach(() => {
		home = tempHome();
	});
	afterEach(() => home?.remove());
	return {
		get home() {
			if (!home) throw new Error("useTempHome: the home exists only inside a test");
			return home;
		},
	};
}

/** A replay server for the file, reset before each test, and a fresh private home per test. */
export function useCliTestContext(): CliTestContext {
	let server: ReplayServer | undefined;
	beforeAll(async () => {
		server = await startReplayServer();
	});
	afterAll(() => server?.close());
	beforeEach(() => server?.reset());
	const homes = useTempHome();
	return {
		get server() {
			if (!server) throw new Error("useCliTestContext: the server exists only inside a test");
			return server;
		},
		get home() {
			return homes.home;
		},
	};
}
