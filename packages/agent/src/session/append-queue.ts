/**
 * The append half of a session: writes run one at a time, in call order, so that each one
 * sees the log as the one before it left it (the storage's conflict check expects that).
 */

/** Runs tasks one after the other; a rejected task does not stop the ones after it. */
export class AppendQueue {
	private tail: Promise<unknown> = Promise.resolve();

	/** Runs `task` once every task queued before it has settled; settles as `task` does. */
	run<T>(task: () => Promise<T>): Promise<T> {
		const result = this.tail.then(task, task);
		this.tail = result.catch(() => {});
		return result;
	}

	/** Resolves once every task queued so far has settled (never rejects). */
	idle(): Promise<void> {
		return this.tail.then(() => {});
	}
}
