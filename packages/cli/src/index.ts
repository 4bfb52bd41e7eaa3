/**
 * `@pi/cli`: the `pi-ai` command-line tool. The package's main use is its binary; this entry lets
 * a program run the CLI in-process (`main(argv)` resolves to the exit code). See docs/cli.md.
 */
export { main } from "./main.js";
export { CliError, EXIT_INTERRUPTED, EXIT_OK, EXIT_REPLY_ERROR, EXIT_USAGE } from "./cli-error.js";
export { configDir, dataDir } from "./paths.js";
