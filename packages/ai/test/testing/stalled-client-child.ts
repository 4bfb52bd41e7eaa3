// Run by replay-server-close.test.ts in a child process: start a server, read a stalled response,
// close the server. The process must then exit on its own: no socket, timer or listener may linger.
import { sseResponse, startReplayServer } from "../../src/testing/index.js";

const server = await startReplayServer();
server.enqueue(sseResponse("data: one\n\ndata: two\n\n", { stallAfterBytes: 11 }));
const response = await fetch(`${server.url}/stall`, { method: "POST", body: "{}" });
const reader = (response.body as ReadableStream<Uint8Array>).getReader();
const first = await reader.read();
console.log(`got ${first.value?.length ?? 0} bytes`);
const rest = reader.read().then(
	() => console.log("read ended"),
	() => console.log("read failed"),
);
await server.close();
await rest;
console.log(`closed ${Date.now()}`);
