// Run by process-exit.test.ts in a child process, against the parent's replay server (argv[2]):
// a representative fault of every kind, for every provider. The server lives in the parent, so a
// socket, timer or listener the library leaves behind keeps THIS process alive: it must exit by
// itself as soon as the last case is over. Prints one JSON line per case, then `done <epoch ms>`.
import { stream } from "../../../src/stream.js";
import { ADAPTERS } from "../harness/adapters.js";
import { FAST, HELLO } from "../harness/run-case.js";
import { CHILD_CASES } from "./child-cases.js";

const origin = process.argv[2];
if (!origin) throw new Error("usage: fault-run.ts <replay server origin>");

for (const adapter of ADAPTERS) {
	for (const testCase of CHILD_CASES) {
		const controller = new AbortController();
		const options = { ...FAST, ...testCase.options, signal: controller.signal };
		const model = adapter.model(origin);
		// Half the cases go through the lazy `stream()` entry point, half call the provider directly.
		const events = testCase.viaEntryPoint ? stream(model, HELLO, options) : adapter.stream(model, HELLO, options);
		let count = 0;
		if (testCase.abortAfterMs !== undefined) setTimeout(() => controller.abort(), testCase.abortAfterMs);
		for await (const event of events) {
			count++;
			if (testCase.abortOnFirstText && event.type === "text_delta") controller.abort();
		}
		const message = await events.result();
		console.log(JSON.stringify({ api: adapter.api, name: testCase.name, stopReason: message.stopReason, events: count }));
	}
}
// What still holds the event loop once every case is over (a fetch's socket closes a tick later).
await new Promise((resolve) => setTimeout(resolve, 20));
console.log(JSON.stringify({ resources: process.getActiveResourcesInfo() }));
console.log(`done ${Date.now()}`);
