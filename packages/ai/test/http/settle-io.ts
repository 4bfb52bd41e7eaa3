/**
 * Lets real I/O run (a server answering, a client reading) until `done()` holds or `ms` of real
 * time passed. Built on `setImmediate`, which tests on fake `setTimeout` leave real: a test can
 * hold a wait still and let the network move.
 */
export async function settleIo(done: () => boolean, ms: number): Promise<void> {
	const start = performance.now();
	while (!done() && performance.now() - start < ms) await new Promise((resolve) => setImmediate(resolve));
}
