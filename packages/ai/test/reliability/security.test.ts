/**
 * Security, for every provider: tool arguments with `__proto__`, `constructor` and `prototype`
 * keys, streamed through the real provider, cannot touch any prototype; API keys (given, or from
 * the environment) travel only in headers and never appear in URLs, messages or events, also when
 * the server echoes them inside the stream.
 */
import { afterEach, describe, expect, it } from "vitest";
import { sseResponse } from "../../src/testing/index.js";
import { ADAPTERS, FAKE_KEY } from "./harness/adapters.js";
import { expectCase, runCase } from "./harness/run-case.js";
import { expectNoUnhandledRejections } from "./harness/unhandled-rejections.js";
import { withServer } from "./harness/with-server.js";

expectNoUnhandledRejections();

const ENV_KEY: Record<string, string> = {
	"anthropic-messages": "ANTHROPIC_API_KEY",
	"openai-completions": "OPENAI_API_KEY",
	"openai-responses": "OPENAI_API_KEY",
	"google-generative-ai": "GEMINI_API_KEY",
};
const ENV_NAMES = ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"];
const saved = Object.fromEntries(ENV_NAMES.map((name) => [name, process.env[name]]));
afterEach(() => {
	for (const name of ENV_NAMES) {
		if (saved[name] === undefined) delete process.env[name];
		else process.env[name] = saved[name];
	}
});

/** Arguments that try every way JSON can reach a prototype, cut so that keys span fragments. */
const HOSTILE_ARGUMENTS = [
	'{"__pro',
	'to__": {"polluted": "yes", "isAdmin": true}, "constr',
	'uctor": {"prototype": {"polluted2": "yes"}}, "prototype": {"polluted3": "yes"}, ',
	'"nested": {"__proto__": {"polluted4": "yes"}}, "list": [{"__proto__": {"polluted5": "yes"}}]}',
];

function expectPrototypesClean(): void {
	const probe: Record<string, unknown> = {};
	for (const name of ["polluted", "isAdmin", "polluted2", "polluted3", "polluted4", "polluted5"]) {
		expect(probe[name], name).toBeUndefined();
		expect(Object.prototype).not.toHaveProperty(name);
	}
	expect(Object.getPrototypeOf(probe)).toBe(Object.prototype);
}

describe.each(ADAPTERS)("$api: security", (adapter) => {
	it("tool arguments with __proto__, constructor and prototype keys are plain data", async () => {
		await withServer(async (server) => {
			server.enqueue(sseResponse(adapter.toolCallStream("call_proto1", "configure", HOSTILE_ARGUMENTS)));
			const result = await runCase(adapter, server);
			const message = expectCase(adapter, result, { stopReason: "toolUse", requests: 1 });
			expectPrototypesClean();
			const call = message.content.find((block) => block.type === "toolCall");
			if (call?.type !== "toolCall") throw new Error("no tool call");
			const args = call.arguments;
			// Every key is an own data property, exactly as JSON.parse would make it.
			expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
			expect(args).toEqual(JSON.parse(HOSTILE_ARGUMENTS.join("")));
			expect(Object.getOwnPropertyDescriptor(args, "__proto__")?.value).toEqual({ polluted: "yes", isAdmin: true });
			expect((args as { isAdmin?: unknown }).isAdmin).toBeUndefined();
			expect(Object.getPrototypeOf(args.nested)).toBe(Object.prototype);
			expect(Object.getPrototypeOf(args.list[0])).toBe(Object.prototype);
			// Partial values seen while streaming were plain data too.
			for (const event of result.events) {
				if (event.type === "toolcall_delta") expect(Object.getPrototypeOf((event.partial.content[event.contentIndex] as { arguments: object }).arguments)).toBe(Object.prototype);
			}
		});
	});

	it("an error event inside the stream that echoes the key: scrubbed, content kept", async () => {
		await withServer(async (server) => {
			const { head } = adapter.textEvents("Before the error.");
			server.enqueue(sseResponse(head + adapter.streamError(`upstream rejected credential ${FAKE_KEY} for this project`)));
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "error", requests: 1, text: "Before the error.", errorIncludes: ["upstream rejected credential", "[REDACTED]"] });
		});
	});

	it("a key from the environment: sent in its header only, scrubbed from echoed errors", async () => {
		await withServer(async (server) => {
			for (const name of ENV_NAMES) delete process.env[name];
			process.env[ENV_KEY[adapter.api] as string] = FAKE_KEY;
			const { head } = adapter.textEvents("Before the error.");
			server.enqueue(sseResponse(head + adapter.streamError(`upstream rejected credential ${FAKE_KEY}`)));
			const result = await runCase(adapter, server, { apiKey: undefined });
			expectCase(adapter, result, { stopReason: "error", requests: 1, text: "Before the error.", errorIncludes: ["[REDACTED]"] });
		});
	});

	it("a key from the environment echoed in an HTTP error: scrubbed", async () => {
		await withServer(async (server) => {
			for (const name of ENV_NAMES) delete process.env[name];
			process.env[ENV_KEY[adapter.api] as string] = FAKE_KEY;
			server.enqueue(adapter.error(401, "auth", `Incorrect API key provided: ${FAKE_KEY}`).response);
			const result = await runCase(adapter, server, { apiKey: undefined });
			expectCase(adapter, result, { stopReason: "error", requests: 1, errorIncludes: ["401", "[REDACTED]"] });
		});
	});
});
