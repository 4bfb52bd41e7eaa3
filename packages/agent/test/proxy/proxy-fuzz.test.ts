import { describe, expect, it } from "vitest";
import { streamProxy } from "../../src/index.js";
import { seeded } from "../helpers/random.js";
import { APP_TOKEN, proxyContext, proxyModel, startNodeProxy, validBody, watchProcess } from "./node-proxy.js";
import { postHead, rawExchange } from "./raw-http.js";

/**
 * Issue 25's fuzz test of the proxy's request parsing: random bytes, random truncations and
 * random nesting sent over raw sockets to handleProxyRequest behind toNodeHandler. The property:
 * the process survives, every complete request is answered with one of the documented statuses,
 * and the server still serves a good request afterwards.
 */

const ANSWERS = new Set([200, 400, 401, 403, 405, 413]);

function randomBytes(random: () => number, length: number): Uint8Array {
	return Uint8Array.from({ length }, () => Math.floor(random() * 256));
}

function nested(random: () => number): string {
	const depth = Math.floor(random() * 2_000);
	const open = Array.from({ length: depth }, () => (random() < 0.5 ? "[" : '{"k":'));
	const close = open.map((bracket) => (bracket === "[" ? "]" : "}")).reverse();
	return validBody().replace('"options":{}', `"options":{"metadata":${open.join("")}1${close.join("")}}`);
}

type Case = { name: string; parts: (string | Uint8Array | "drop")[]; complete: boolean };

function randomCase(random: () => number): Case {
	const good = validBody();
	switch (Math.floor(random() * 6)) {
		case 0: {
			const body = randomBytes(random, Math.floor(random() * 3_000));
			return { name: "random bytes", parts: [postHead(APP_TOKEN, { "content-length": body.length }), body], complete: true };
		}
		case 1: {
			const body = good.slice(0, Math.floor(random() * good.length));
			return { name: "a truncated body", parts: [postHead(APP_TOKEN, { "content-length": Buffer.byteLength(body) }), body], complete: true };
		}
		case 2: {
			const cut = Math.floor(random() * good.length);
			return { name: "a body dropped midway", parts: [postHead(APP_TOKEN, { "content-length": good.length }), good.slice(0, cut), "drop"], complete: false };
		}
		case 3: {
			const body = nested(random);
			return { name: "random nesting", parts: [postHead(APP_TOKEN, { "content-length": Buffer.byteLength(body) }), body], complete: true };
		}
		case 4: {
			// Valid JSON with random values in the places the parser checks.
			const values = [null, 1, "x", [], {}, true, -1, 1e308, "ultra", { role: "system" }];
			const pick = () => values[Math.floor(random() * values.length)];
			const options = { maxTokens: pick(), reasoning: random() < 0.5 ? "high" : pick(), cacheRetention: random() < 0.5 ? "long" : pick(), temperature: random() < 0.5 ? 0.5 : pick() };
			const valid = random() < 0.5;
			const model = valid ? (random() < 0.8 ? proxyModel : { ...proxyModel, id: "o1-pro" }) : random() < 0.5 ? pick() : { provider: pick(), id: pick() };
			const context = valid ? proxyContext : random() < 0.5 ? pick() : { messages: [pick()], systemPrompt: pick(), tools: pick() };
			const body = JSON.stringify({ model, context, options });
			const token = random() < 0.9 ? APP_TOKEN : "wrong-token";
			return { name: "random fields", parts: [postHead(token, { "content-length": Buffer.byteLength(body) }), body], complete: true };
		}
		default: {
			// Random bytes anywhere in the request itself, head included.
			return { name: "random request", parts: [randomBytes(random, 1 + Math.floor(random() * 500)), "\r\n\r\n"], complete: false };
		}
	}
}

describe("proxy request fuzz", () => {
	it("survives 300 hostile requests and answers or refuses each complete one", async () => {
		const seed = 2501;
		const random = seeded(seed);
		const { crashes } = await watchProcess(async () => {
			const proxy = await startNodeProxy({ maxBodyBytes: 64 * 1024, limits: { maxTokens: 1024, reasoning: "medium", exceed: random() < 0.5 ? "clamp" : "refuse" } });
			try {
				for (let index = 0; index < 300; index++) {
					const test = randomCase(random);
					const exchange = await rawExchange(proxy.port, test.parts, (text) => /\r\n0\r\n\r\n$|^HTTP\/1\.1 [^2]\d\d[\s\S]*\r\n\r\n[\s\S]*\}$/.test(text));
					const context = `seed ${seed}, case ${index} (${test.name})`;
					if (test.complete) {
						expect(exchange.statuses.length, context).toBe(1);
						expect(ANSWERS.has(exchange.statuses[0] as number), `${context}: status ${exchange.statuses[0]}`).toBe(true);
					}
				}
				const after = await streamProxy(proxyModel, proxyContext, { authToken: APP_TOKEN, proxyUrl: proxy.url }).result();
				expect(after.stopReason).toBe("stop");
			} finally {
				await proxy.close();
			}
		});
		expect(crashes).toEqual([]);
	});
});
