/** Reading a proxy request's body within a size bound, whatever the client does midway. */

/**
 * The body as text; `too-large` when it passes `limit` bytes (read no further than that, the
 * rest cancelled); `broken` when the body stream failed (a client that dropped the connection).
 */
export async function readRequestBody(request: Request, limit: number): Promise<string | "too-large" | "broken"> {
	const declared = Number(request.headers.get("content-length"));
	// Not read and not cancelled: the answer says `connection: close`, which ends the body's
	// connection (cancelling here would crash adapters built on Node's `Readable.toWeb`).
	if (Number.isFinite(declared) && declared > limit) return "too-large";
	if (!request.body) return "";
	let reader: ReadableStreamDefaultReader<Uint8Array>;
	try {
		reader = request.body.getReader();
	} catch {
		return "broken"; // already read or locked
	}
	const chunks: Uint8Array[] = [];
	let size = 0;
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			size += value.byteLength;
			if (size > limit) {
				await reader.cancel().catch(() => {});
				return "too-large";
			}
			chunks.push(value);
		}
	} catch {
		return "broken";
	}
	const bytes = new Uint8Array(size);
	let offset = 0;
	for (const chunk of chunks) {
		bytes.set(chunk, offset);
		offset += chunk.byteLength;
	}
	return new TextDecoder().decode(bytes);
}
