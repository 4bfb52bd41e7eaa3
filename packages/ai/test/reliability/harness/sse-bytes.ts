/** Byte-level helpers for cutting recorded SSE bodies at meaningful places. */

/**
 * The offsets just after each event of an SSE body: after each blank line, whether lines end in
 * LF, CRLF or CR. The last offset is the body length when the body ends with a blank line.
 */
export function eventBoundaries(bytes: Uint8Array): number[] {
	const text = Buffer.from(bytes).toString("latin1");
	const boundaries: number[] = [];
	const blankLine = /\r\n\r\n|\n\n|\r\r/g;
	for (let match = blankLine.exec(text); match; match = blankLine.exec(text)) boundaries.push(match.index + match[0].length);
	return boundaries;
}

/** The offset right after the event that contains `marker`. Throws when there is none. */
export function afterEventWith(bytes: Uint8Array, marker: string): number {
	const at = Buffer.from(bytes).indexOf(marker);
	if (at < 0) throw new Error(`marker ${marker} not in the body`);
	const boundary = eventBoundaries(bytes).find((offset) => offset > at);
	if (boundary === undefined) throw new Error(`no event boundary after ${marker}`);
	return boundary;
}

/**
 * The body with a UTF-8 byte-order mark in front and every line ending (CRLF or LF) turned into a
 * lone CR: legal SSE framing that few servers use and many parsers get wrong.
 */
export function withBomAndCrLineEndings(bytes: Uint8Array): Buffer {
	const text = Buffer.from(bytes).toString("utf8").replace(/\r\n|\n/g, "\r");
	return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, "utf8")]);
}
