/**
 * Ids for function calls that arrive without one. Gemini 2.x sends no `id`; newer models do, and
 * the provider then keeps the wire id. A generated id is `${name}_${n}_${random}`: `n` counts the
 * calls of one message (so ids never collide within it) and the random part keeps ids of
 * different messages apart.
 *
 * @example
 * const nextId = createToolCallIdGenerator();
 * nextId("get_weather"); // "get_weather_1_k3j9x0qa"
 */
export function createToolCallIdGenerator(random: () => number = Math.random): (name: string) => string {
	let count = 0;
	return (name) => {
		count++;
		let suffix = "";
		while (suffix.length < 8) suffix += Math.floor(random() * 36).toString(36);
		return `${name}_${count}_${suffix}`;
	};
}

/**
 * True when `id` has the shape {@link createToolCallIdGenerator} gives for a call of `name`. Such ids
 * were never seen by the model, so they are not replayed as `functionCall.id`.
 */
export function isGeneratedToolCallId(id: string, name: string): boolean {
	return id.startsWith(`${name}_`) && /^\d+_[0-9a-z]{8}$/.test(id.slice(name.length + 1));
}
