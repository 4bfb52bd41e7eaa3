import { Buffer } from "node:buffer";

/** What a client got from a response body: the bytes, how many reads, and the error that ended it, if any. */
export interface BodyResult {
	bytes: Buffer;
	reads: number;
	error: Error | undefined;
}

/** Reads a fetch response body to its end (or failure), never throwing. */
export async function readBody(response: Response): Promise<BodyResult> {
	const parts: Uint8Array[] = [];
	const reader = (response.body as ReadableStream<Uint8Array>).getReader();
	try {
		for (;;) {
			const chunk = await reader.read();
			if (chunk.done) return { bytes: Buffer.concat(parts), reads: parts.length, error: undefined };
			parts.push(chunk.value);
		}
	} catch (error) {
		return { bytes: Buffer.concat(parts), reads: parts.length, error: error as Error };
	}
}

/** POSTs a small JSON body, as providers do. */
export function post(url: string, init: RequestInit = {}): Promise<Response> {
	return fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}", ...init });
}
