#!/usr/bin/env node
// The `pi-ai` executable. Exits once standard output has drained, with the code main() returns,
// so that nothing (a user's tool module's timer, an idle keep-alive socket) holds the process.
import { main } from "./main.js";

// A reader that went away (`pi-ai … | head`, EPIPE) or a closed terminal (EIO) is no crash: the
// output has nowhere to go, and the prompt command stops its run on EPIPE (stop-requests.ts).
for (const stream of [process.stdout, process.stderr]) {
	stream.on("error", (error: NodeJS.ErrnoException) => {
		if (error.code !== "EPIPE" && error.code !== "EIO") throw error;
	});
}

const code = await main(process.argv.slice(2));
process.stdout.write("", () => process.exit(code));
