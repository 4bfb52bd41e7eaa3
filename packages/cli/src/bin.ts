#!/usr/bin/env node
// The `pi-ai` executable. Exits once standard output has drained, with the code main() returns,
// so that nothing (a user's tool module's timer, an idle keep-alive socket) holds the process.
import { main } from "./main.js";

const code = await main(process.argv.slice(2));
process.stdout.write("", () => process.exit(code));
