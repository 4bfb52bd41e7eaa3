/**
 * A plain-text table: columns padded to their widest cell, two spaces apart. Widths count
 * characters, which is right for the ASCII ids and numbers it shows.
 */

/** Options of {@link formatTable}. */
export interface TableOptions {
	/** Indexes of the columns aligned to the right (numbers). */
	alignRight?: readonly number[];
}

/**
 * The lines of a table, header first, without trailing spaces.
 *
 * @example
 * formatTable(["A", "B"], [["x", "10"]], { alignRight: [1] }) // ["A   B", "x  10"]
 */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], options: TableOptions = {}): string[] {
	const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)));
	const right = new Set(options.alignRight ?? []);
	const render = (row: readonly string[]) =>
		row
			.map((cell, column) => (right.has(column) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
			.join("  ")
			.trimEnd();
	return [render(header), ...rows.map(render)];
}
