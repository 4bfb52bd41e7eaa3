import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "@pi/ai/testing";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleForBrowser, packageDir } from "./browser-bundle.js";
import { chromiumPath } from "./chromium-path.js";
import { apis } from "./models.js";

// A real Chromium (Debian's, never a downloaded one) loads a page from one origin that streams from
// the replay server on another: real CORS, with preflights, in a real browser.
let replay: ReplayServer;
let site: Server;
let siteUrl: string;
let browser: BrowserContext;
let page: Page;
let profile: string;
const outputDir = join(packageDir, "test-output");

beforeAll(async () => {
	const bundle = await bundleForBrowser(`import "./test/browser/page.ts";`);
	expect(bundle.builtinImports).toEqual([]);
	const html = `<!doctype html><meta charset="utf-8"><title>@pi in Chromium</title><script type="module" src="/page.js"></script><body></body>`;
	site = createServer((req, res) => {
		if (req.url === "/page.js") res.writeHead(200, { "content-type": "text/javascript" }).end(bundle.code);
		else if (req.url?.startsWith("/?")) res.writeHead(200, { "content-type": "text/html" }).end(html);
		else res.writeHead(404).end();
	});
	await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
	const address = site.address();
	if (address === null || typeof address === "string") throw new Error("no site address");
	siteUrl = `http://127.0.0.1:${address.port}`;

	replay = await startReplayServer({ cors: true });
	for (const api of apis) replay.enqueue(sseResponse(loadFixture(api, "text-basic")));
	replay.enqueue(sseResponse(loadFixture("anthropic-messages", "tool-use-single")), sseResponse(loadFixture("anthropic-messages", "text-basic")));
	const stalled = loadFixture("openai-completions", "text-basic");
	replay.enqueue({ ...sseResponse(stalled), stallAfterBytes: Math.floor(stalled.length / 2) });

	profile = mkdtempSync(join(tmpdir(), "pi-chromium-"));
	// A fresh, empty profile each run (playwright passes it as --user-data-dir).
	browser = await chromium.launchPersistentContext(profile, {
		executablePath: chromiumPath(),
		headless: true,
		args: [
			"--no-sandbox",
			"--disable-gpu",
			"--disable-quic",
			"--disable-background-networking",
			"--disable-component-update",
			"--disable-sync",
			"--no-first-run",
		],
	});
	page = browser.pages()[0] ?? (await browser.newPage());
	const pageErrors: string[] = [];
	page.on("pageerror", (error) => pageErrors.push(String(error)));
	await page.goto(`${siteUrl}/?replay=${encodeURIComponent(replay.url)}`);
	const logs: string[] = [];
	page.on("console", (message) => logs.push(message.text()));
	await page.waitForSelector("#abort-ready, #page-error", { state: "attached", timeout: 20_000 }).catch(async (error) => {
		throw new Error(`the page did not get to the abort step (${error}): body ${await page.textContent("body")}; console ${logs.join(" | ")}; errors ${pageErrors.join("; ")}; ${replay.requests.length} requests, ${replay.preflights.length} preflights`);
	});
	const failure = await page.$("#page-error");
	if (failure) throw new Error(`the page failed: ${await page.textContent("body")}; ${pageErrors.join("; ")}`);
	await page.click("#abort");
	await page.waitForSelector("#done", { state: "attached" });
	mkdirSync(outputDir, { recursive: true });
	await page.screenshot({ path: join(outputDir, "chromium.png"), fullPage: true });
	expect(pageErrors).toEqual([]);
});

afterAll(async () => {
	await browser?.close();
	await replay?.close();
	await new Promise((resolve) => site?.close(resolve));
	if (profile) rmSync(profile, { recursive: true, force: true });
});

const read = async (id: string) => JSON.parse((await page.textContent(`#${id}`)) ?? "null");

describe("@pi/ai and @pi/agent-core in Chromium", () => {
	it("the page raised no error", async () => {
		expect(await page.$("#page-error")).toBeNull();
	});

	for (const api of apis) {
		it(`streams a recorded ${api} capture cross-origin, through a preflight`, async () => {
			const result = await read(`result-${api}`);
			expect(result.errorMessage).toBeUndefined();
			expect(result.stopReason).toBe("stop");
			expect(result.text.length).toBeGreaterThan(0);
			expect(result.deltas).toBeGreaterThan(0);
		});
	}

	it("every POST was preceded by a preflight from the page's origin, and carried the key", () => {
		// Chromium caches nothing (max-age 0), so each request had its own preflight.
		expect(replay.preflights.length).toBe(replay.requests.length);
		for (const preflight of replay.preflights) expect(preflight.headers.origin).toBe(siteUrl);
		expect(replay.requests.map((r) => r.method)).toEqual(Array(replay.requests.length).fill("POST"));
		const anthropic = replay.requests[2];
		expect(anthropic?.headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
		expect(anthropic?.headers["x-api-key"]).toBe("browser-test-key");
	});

	it("runs an Agent with one tool to the end", async () => {
		const result = await read("result-agent");
		expect(result.toolCalls).toBe(1);
		expect(result.roles).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(result.stopReason).toBe("stop");
		expect(result.lastEvent).toBe("agent_end");
	});

	it("a click on the page's button aborts a stream mid-way, keeping the partial text", async () => {
		const result = await read("result-abort");
		expect(result.stopReason).toBe("aborted");
		expect(result.text.length).toBeGreaterThan(0);
		expect(replay.pendingResponses).toBe(0);
	});
});
