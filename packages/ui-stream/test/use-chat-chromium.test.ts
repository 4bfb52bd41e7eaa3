import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, createMemorySessionStorage, openSession } from "@pi/agent-core";
import { fauxAssistantMessage, fauxText, fauxToolCall, registerFauxProvider } from "@pi/ai";
import { build } from "esbuild";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { expectValidChunks } from "./helpers/ai-schemas.js";
import { type ChatServer, startChatServer } from "./helpers/chat-server.js";
// One rule for which Chromium the tests drive: runtime-tests' (PI_CHROMIUM, else chromium on the PATH).
import { chromiumPath } from "../../runtime-tests/test/chromium-path.js";
import { add, deleteFileTool } from "./helpers/tools.js";

let server: ChatServer | undefined;
let browser: BrowserContext | undefined;
let profile: string | undefined;
afterAll(async () => {
	await browser?.close();
	await server?.close();
	if (profile) rmSync(profile, { recursive: true, force: true });
});

/** The page's script: React, @ai-sdk/react and ai bundled by esbuild, as an app's build would. */
async function bundlePage(): Promise<string> {
	const result = await build({
		entryPoints: [fileURLToPath(new URL("./browser/chat-page.tsx", import.meta.url))],
		bundle: true,
		write: false,
		format: "esm",
		platform: "browser",
		target: "es2022",
		jsx: "automatic",
		define: { "process.env.NODE_ENV": '"production"' },
		logLevel: "silent",
	});
	return result.outputFiles[0]?.text ?? "";
}

describe("@ai-sdk/react's useChat in Chromium", () => {
	it("holds one conversation with a tool call and an approval, shown on the page", { timeout: 90_000 }, async () => {
		const deleted: string[] = [];
		const faux = registerFauxProvider();
		faux.setResponses([
			fauxAssistantMessage([fauxText("Adding, then deleting."), fauxToolCall("add", { a: 2, b: 3 }, { id: "call_add" }), fauxToolCall("delete_file", { path: "tmp/a.log" }, { id: "call_del" })]),
			fauxAssistantMessage("All done: 5, and tmp/a.log is gone."),
		]);
		const storage = createMemorySessionStorage();
		const html = `<!doctype html><meta charset="utf-8"><title>useChat and @pi/ui-stream</title><div id="root"></div><script type="module" src="/page.js"></script>`;
		server = await startChatServer(async () => new Agent({ session: await openSession(storage.reopen()), initialState: { model: faux.getModel(), tools: [add, deleteFileTool(deleted)] } }), {
			afterRequest: async (agent) => agent.session?.close(),
			files: { "/": { type: "text/html", body: html }, "/page.js": { type: "text/javascript", body: await bundlePage() } },
		});

		profile = mkdtempSync(join(tmpdir(), "pi-ui-stream-chromium-"));
		browser = await chromium.launchPersistentContext(profile, {
			executablePath: chromiumPath(),
			headless: true,
			args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
		});
		const page = browser.pages()[0] ?? (await browser.newPage());
		const pageErrors: string[] = [];
		page.on("pageerror", (error) => pageErrors.push(String(error)));
		await page.goto(server.url.replace("/api/chat", "/"));

		await page.getByRole("textbox", { name: "message" }).fill("Add 2 and 3, then delete tmp/a.log");
		await page.getByRole("button", { name: "Send" }).click();
		const addTool = page.getByRole("region", { name: "tool add" });
		const deleteTool = page.getByRole("region", { name: "tool delete_file" });
		await expect.poll(() => addTool.locator("output").textContent(), { timeout: 20_000 }).toBe("output-available");
		expect(await addTool.locator("pre").textContent()).toBe("5");
		await expect.poll(() => deleteTool.locator("output").textContent(), { timeout: 20_000 }).toBe("approval-requested");
		expect(deleted).toEqual([]);

		await deleteTool.getByRole("button", { name: "Approve" }).click();
		await expect.poll(() => page.getByText("All done: 5, and tmp/a.log is gone.").count(), { timeout: 20_000 }).toBe(1);
		expect(await deleteTool.locator("output").textContent()).toBe("output-available");
		expect(await deleteTool.locator("pre").textContent()).toBe("deleted tmp/a.log");
		await expect.poll(() => page.getByRole("status", { name: "chat status" }).textContent(), { timeout: 20_000 }).toBe("ready");
		expect(deleted).toEqual(["tmp/a.log"]);
		expect(server.requests.map((request) => request.status)).toEqual([200, 200]);
		for (const request of server.requests) await expectValidChunks(request.chunks);
		expect(pageErrors).toEqual([]);
		faux.unregister();
	});
});
