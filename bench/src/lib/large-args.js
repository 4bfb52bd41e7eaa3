/**
 * Large tool-call arguments: realistic JSON (nested objects, source code with escapes, unicode and
 * emoji) of a chosen size, and an OpenAI Chat Completions stream delivering it in 20-character
 * argument deltas, the way a model writes a big file through a tool.
 */

/** Deterministic PRNG (mulberry32), so every run and both libraries see the same JSON. */
function prng(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const WORDS = ["render", "state", "buffer", "événement", "naïve", "größe", "数据", "処理", "🚀", "ok ✓", "path\\to\\file", "say \"hi\"", "tab\there", "línea", "данные", "—", "a/b", "<div>", "x = y + 1;"];

/** One pseudo source file: lines of code with quotes, backslashes, tabs and non-ASCII text. */
function sourceText(random, lines) {
	const out = [];
	for (let i = 0; i < lines; i++) {
		const indent = "\t".repeat(Math.floor(random() * 4));
		const a = WORDS[Math.floor(random() * WORDS.length)];
		const b = WORDS[Math.floor(random() * WORDS.length)];
		switch (i % 4) {
			case 0:
				out.push(`${indent}const v${i} = "${a}" + '${b}'; // ${b}`);
				break;
			case 1:
				out.push(`${indent}if (v${i - 1}.includes("\\n")) return { "${a}": ${Math.floor(random() * 1e6) / 100} };`);
				break;
			case 2:
				out.push(`${indent}log(\`${a} → ${b}\`, /[a-z]+\\d*/g);`);
				break;
			default:
				out.push(`${indent}// ${a} ${b} ${a}`);
		}
	}
	return out.join("\n");
}

/**
 * A JSON text of about `targetBytes` UTF-8 bytes (never less), shaped like the arguments of a
 * "write several files" tool call.
 * @param {number} targetBytes
 * @returns {string}
 */
export function realisticJson(targetBytes) {
	const random = prng(42);
	const files = [];
	const value = { operation: "write_files", dryRun: false, options: { encoding: "utf-8", overwrite: true, mode: 0o644 }, files };
	let bytes = Buffer.byteLength(JSON.stringify(value));
	let n = 0;
	while (bytes < targetBytes) {
		const file = {
			path: `src/module-${n}/${WORDS[n % WORDS.length].replace(/[^a-z]/gi, "") || "file"}-${n}.ts`,
			content: sourceText(random, 8 + Math.floor(random() * 24)),
			metadata: { lines: 0, tags: ["generated", WORDS[n % WORDS.length]], review: { required: n % 3 === 0, reviewers: ["ana", "李"], score: random() }, checksum: null },
		};
		file.metadata.lines = file.content.split("\n").length;
		files.push(file);
		bytes += Buffer.byteLength(JSON.stringify(file)) + 1;
		n++;
	}
	return JSON.stringify(value);
}

/**
 * Cuts `text` into pieces of `size` UTF-16 code units, never splitting a surrogate pair (a model's
 * deltas are always valid text).
 * @param {string} text
 * @param {number} size
 */
export function deltas(text, size) {
	const out = [];
	for (let start = 0; start < text.length; ) {
		let end = Math.min(text.length, start + size);
		const code = text.charCodeAt(end - 1);
		if (end < text.length && code >= 0xd800 && code <= 0xdbff) end++;
		out.push(text.slice(start, end));
		start = end;
	}
	return out;
}

const CHUNK = { id: "chatcmpl-bench-large-args", object: "chat.completion.chunk", created: 1_766_084_439, model: "gpt-4o-2024-08-06", system_fingerprint: "fp_bench" };

/** One Chat Completions chunk line. */
function chunk(delta, finishReason = null, usage = null) {
	return `data: ${JSON.stringify({ ...CHUNK, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], usage })}\n\n`;
}

/**
 * A Chat Completions SSE body with one tool call whose arguments are `realisticJson(argsBytes)`,
 * streamed in 20-character deltas.
 * @param {number} argsBytes
 */
export function buildLargeArgsBody(argsBytes) {
	const args = realisticJson(argsBytes);
	const parts = [chunk({ role: "assistant", content: null }), chunk({ tool_calls: [{ index: 0, id: "call_bench_large", type: "function", function: { name: "write_files", arguments: "" } }] })];
	for (const piece of deltas(args, 20)) parts.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
	parts.push(chunk({}, "tool_calls"));
	parts.push(`data: ${JSON.stringify({ ...CHUNK, choices: [], usage: { prompt_tokens: 100, completion_tokens: Math.ceil(args.length / 4), total_tokens: 100 + Math.ceil(args.length / 4) } })}\n\n`);
	parts.push("data: [DONE]\n\n");
	return { body: Buffer.from(parts.join(""), "utf8"), eventsPerRequest: parts.length, requests: 1, argsChars: args.length, fixture: `synthetic ${argsBytes} B arguments` };
}
