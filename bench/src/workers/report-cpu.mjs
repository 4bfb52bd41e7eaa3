// Preloaded (node --import) into each process the CLI start-up measurement runs: at exit it
// prints the process's own CPU time as the last line of stderr, a steadier figure than wall time
// on a shared machine. The bare baseline gets the same preload, so its cost cancels out.
process.on("exit", () => {
	const { user, system } = process.cpuUsage();
	process.stderr.write(`\n${JSON.stringify({ cpuMs: (user + system) / 1000 })}\n`);
});
