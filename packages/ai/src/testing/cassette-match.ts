/**
 * Which recorded interaction answers a request: same method, same path and query, and the same
 * JSON body once normalised (key order does not count; the volatile fields the user lists are
 * dropped). When none does, a diff against the closest recording names the JSON paths that differ.
 */
import type { CassetteRequest, Interaction } from "./cassette-store.js";

/**
 * Fields to leave out of the comparison, e.g. `["metadata.user_id", "messages[*].timestamp", "seed"]`.
 *
 * - A bare name (`seed`, `timestamp`) is that key at any depth.
 * - A path (`metadata.user_id`, `messages[*].id`, `tools[0].cache_control`) starts at the body's
 *   root; `*` stands for any key or index. The notation is the one mismatch diffs print, without
 *   their leading `body.`.
 */
export type IgnoredFields = readonly string[];

type Segment = string | number;

/** A JSON path as the diff prints it: `messages[1].content[0].text`. */
function formatPath(segments: readonly Segment[]): string {
	return segments.map((segment, index) => (typeof segment === "number" ? `[${segment}]` : /^[A-Za-z_$][\w$-]*$/.test(segment) ? `${index === 0 ? "" : "."}${segment}` : `[${JSON.stringify(segment)}]`)).join("");
}

function parsePattern(pattern: string): Segment[] | string {
	if (!/[.[]/.test(pattern)) return pattern;
	const segments: Segment[] = [];
	for (const match of pattern.matchAll(/([^.[\]]+)|\[(\d+|\*)\]/g)) {
		if (match[1] !== undefined) segments.push(match[1]);
		else segments.push(match[2] === "*" ? "*" : Number(match[2]));
	}
	return segments;
}

/** Compiles the ignore list once: `ignored(path)` says whether a key at `path` is left out. */
function compileIgnored(ignore: IgnoredFields): (path: readonly Segment[]) => boolean {
	const names = new Set<string>();
	const paths: Segment[][] = [];
	for (const pattern of ignore) {
		const parsed = parsePattern(pattern);
		if (typeof parsed === "string") names.add(parsed);
		else paths.push(parsed);
	}
	return (path) => {
		const last = path[path.length - 1];
		if (typeof last === "string" && names.has(last)) return true;
		return paths.some((pattern) => pattern.length === path.length && pattern.every((segment, i) => segment === "*" || segment === path[i]));
	};
}

/** `value` with keys sorted at every depth and the ignored fields removed: equal bodies give equal text. */
export function normaliseBody(value: unknown, ignore: IgnoredFields = []): string {
	const ignored = compileIgnored(ignore);
	const walk = (item: unknown, path: Segment[]): unknown => {
		if (Array.isArray(item)) return item.map((entry, index) => walk(entry, [...path, index]));
		if (typeof item === "object" && item !== null) {
			const out: Record<string, unknown> = {};
			for (const key of Object.keys(item).sort()) {
				const next = [...path, key];
				if (!ignored(next)) out[key] = walk((item as Record<string, unknown>)[key], next);
			}
			return out;
		}
		return item;
	};
	return JSON.stringify(walk(value, [])) ?? "";
}

/** The text a request is matched on besides its body: `POST /v1/messages?alt=sse`, query sorted. */
export function requestLine(request: CassetteRequest): string {
	const query = Object.entries(request.query ?? {})
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
		.map(([key, value]) => `${key}=${value}`)
		.join("&");
	return `${request.method} ${request.path}${query ? `?${query}` : ""}`;
}

function bodyOf(request: CassetteRequest): unknown {
	return request.body !== undefined ? request.body : request.bodyText;
}

/** Matches requests against one cassette's interactions, replaying repeats in recorded order. */
export class CassetteMatcher {
	private readonly used = new Set<string>();
	private readonly keys: Map<Interaction, string>;

	constructor(
		readonly interactions: Interaction[],
		private readonly ignore: IgnoredFields = [],
	) {
		this.keys = new Map(interactions.map((interaction) => [interaction, this.key(interaction.request)]));
	}

	private key(request: CassetteRequest): string {
		return `${requestLine(request)}\n${normaliseBody(bodyOf(request), this.ignore)}`;
	}

	/** Adds a freshly recorded interaction, already answered (so it is not replayed again this session). */
	add(interaction: Interaction): void {
		this.interactions.push(interaction);
		this.keys.set(interaction, this.key(interaction.request));
		this.used.add(interaction.id);
	}

	/**
	 * The first interaction not yet replayed whose request equals `request`, marked as replayed;
	 * `undefined` when there is none. With `peek`, nothing is marked.
	 */
	take(request: CassetteRequest, peek = false): Interaction | undefined {
		const key = this.key(request);
		const found = this.interactions.find((interaction) => !this.used.has(interaction.id) && this.keys.get(interaction) === key);
		if (found && !peek) this.used.add(found.id);
		return found;
	}

	/** Makes `interaction` available again, first in line (a fault cut its answer short). */
	release(interaction: Interaction): void {
		this.used.delete(interaction.id);
	}

	/** Interactions never replayed so far. */
	unused(): Interaction[] {
		return this.interactions.filter((interaction) => !this.used.has(interaction.id));
	}

	/**
	 * Why `request` has no match, for an error message: either every recording of it was already
	 * replayed, or the closest recorded request and the JSON paths where it differs.
	 */
	explain(request: CassetteRequest, where: string): string {
		const line = requestLine(request);
		const key = this.key(request);
		const same = this.interactions.filter((interaction) => this.keys.get(interaction) === key);
		if (same.length > 0) {
			return `All ${same.length} recording(s) of ${line} in ${where} were already replayed (${same.map((interaction) => interaction.id).join(", ")}); a request made more often than when recording needs a new recording.`;
		}
		if (this.interactions.length === 0) return `No recorded interaction matches ${line}: the cassette ${where} is empty.`;
		let best: { interaction: Interaction; differences: string[]; score: number } | undefined;
		for (const interaction of this.interactions) {
			const differences = this.differences(interaction.request, request);
			const score = differences.length + (interaction.request.method !== request.method ? 1000 : 0) + (interaction.request.path !== request.path ? 100 : 0);
			if (!best || score < best.score) best = { interaction, differences, score };
		}
		const closest = best as { interaction: Interaction; differences: string[] };
		const shown = closest.differences.slice(0, 12);
		const more = closest.differences.length - shown.length;
		return [
			`No recorded interaction matches ${line} in ${where}. Closest: ${closest.interaction.id} (${requestLine(closest.interaction.request)}), which differs at:`,
			...shown.map((difference) => `  ${difference}`),
			...(more > 0 ? [`  … and ${more} more`] : []),
		].join("\n");
	}

	private differences(recorded: CassetteRequest, actual: CassetteRequest): string[] {
		const out: string[] = [];
		if (recorded.method !== actual.method) out.push(`method: recorded ${recorded.method}, now ${actual.method}`);
		if (recorded.path !== actual.path) out.push(`path: recorded ${recorded.path}, now ${actual.path}`);
		const keys = new Set([...Object.keys(recorded.query ?? {}), ...Object.keys(actual.query ?? {})]);
		for (const key of [...keys].sort()) {
			const a = recorded.query?.[key];
			const b = actual.query?.[key];
			if (a !== b) out.push(`query.${key}: recorded ${show(a)}, now ${show(b)}`);
		}
		const ignored = compileIgnored(this.ignore);
		diffJson(bodyOf(recorded), bodyOf(actual), ["body"], ignored, out);
		return out;
	}
}

function diffJson(recorded: unknown, actual: unknown, path: Segment[], ignored: (path: readonly Segment[]) => boolean, out: string[]): void {
	if (path.length > 1 && ignored(path.slice(1))) return;
	const bothArrays = Array.isArray(recorded) && Array.isArray(actual);
	const bothObjects = isObject(recorded) && isObject(actual);
	if (bothArrays) {
		const length = Math.max(recorded.length, actual.length);
		for (let index = 0; index < length; index++) diffJson(recorded[index], actual[index], [...path, index], ignored, out);
		return;
	}
	if (bothObjects) {
		const keys = [...new Set([...Object.keys(recorded), ...Object.keys(actual)])].sort();
		for (const key of keys) diffJson(recorded[key], actual[key], [...path, key], ignored, out);
		return;
	}
	if (JSON.stringify(recorded) !== JSON.stringify(actual)) out.push(`${formatPath(path)}: recorded ${show(recorded)}, now ${show(actual)}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
	if (value === undefined) return "absent";
	const text = JSON.stringify(value);
	return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
