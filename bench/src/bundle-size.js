// Bundle size of a minimal browser app per provider: esbuild (minified, ESM, browser platform,
// code splitting so lazy imports stay lazy), gzipped. Ours against @mariozechner/pi-ai 0.73.1 and
// the AI SDK 7 (`streamText` plus one `@ai-sdk/*` provider), the same app bundled the same way. Prints a Markdown table (and JSON with --json).
// Run: pnpm --filter @pi/bench bench:bundle-size (it builds @pi/ai first: bundles use dist/).
import { builtinModules } from "node:module";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const benchDir = fileURLToPath(new URL("..", import.meta.url));
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

const providers = [
	{ api: "openai-completions", ours: ["@pi/ai/openai-completions", "streamSimpleOpenAICompletions"], ref: ["@mariozechner/pi-ai/openai-completions", "streamSimpleOpenAICompletions"], aiSdk: ["@ai-sdk/openai", "createOpenAI", "provider.chat"] },
	{ api: "openai-responses", ours: ["@pi/ai/openai-responses", "streamSimpleOpenAIResponses"], ref: ["@mariozechner/pi-ai/openai-responses", "streamSimpleOpenAIResponses"], aiSdk: ["@ai-sdk/openai", "createOpenAI", "provider.responses"] },
	{ api: "anthropic-messages", ours: ["@pi/ai/anthropic-messages", "streamSimpleAnthropic"], ref: ["@mariozechner/pi-ai/anthropic", "streamSimpleAnthropic"], aiSdk: ["@ai-sdk/anthropic", "createAnthropic", "provider"] },
	{ api: "google-generative-ai", ours: ["@pi/ai/google-generative-ai", "streamSimpleGoogle"], ref: ["@mariozechner/pi-ai/google", "streamSimpleGoogle"], aiSdk: ["@ai-sdk/google", "createGoogleGenerativeAI", "provider"] },
];

/** The minimal app: stream one reply and print the text as it comes. */
function app(specifier, name, api) {
	return `import { ${name} } from "${specifier}";
const model = { id: "m", name: "m", api: "${api}", provider: "p", baseUrl: "http://127.0.0.1:9", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 };
const s = ${name}(model, { messages: [{ role: "user", content: "Hi", timestamp: 0 }] }, { apiKey: "k" });
for await (const e of s) if (e.type === "text_delta") document.body.append(e.delta);
`;
}

/** The same app over the AI SDK: `streamText` with one provider's model, printing the text stream. */
function aiSdkApp(specifier, factory, modelOf) {
	return `import { streamText } from "ai";
import { ${factory} } from "${specifier}";
const provider = ${factory}({ apiKey: "k", baseURL: "http://127.0.0.1:9" });
const result = streamText({ model: ${modelOf}("m"), prompt: "Hi" });
for await (const text of result.textStream) document.body.append(text);
`;
}

/** Bundles `source`; eager = the entry chunk plus the chunks it imports statically. */
async function measure(source) {
	const nodeImports = new Set();
	const result = await build({
		stdin: { contents: source, resolveDir: benchDir, sourcefile: "app.js", loader: "js" },
		bundle: true,
		write: false,
		splitting: true,
		outdir: "/virtual",
		format: "esm",
		platform: "browser",
		target: "es2022",
		minify: true,
		metafile: true,
		logLevel: "silent",
		plugins: [
			{
				name: "node-builtins",
				setup(b) {
					b.onResolve({ filter: /.*/ }, (args) => {
						if (!builtins.has(args.path)) return undefined;
						nodeImports.add(args.path);
						return { path: args.path, external: true };
					});
				},
			},
		],
	});
	const files = new Map(result.outputFiles.map((file) => [file.path, file.contents]));
	const outputs = result.metafile.outputs;
	const entry = Object.keys(outputs).find((path) => outputs[path].entryPoint !== undefined);
	const eager = new Set();
	const visit = (path) => {
		if (eager.has(path)) return;
		eager.add(path);
		for (const imported of outputs[path].imports) if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
	};
	visit(entry);
	const gz = (paths) => paths.reduce((sum, path) => sum + gzipSync(files.get(resolve(path)) ?? fail(path), { level: 9 }).length, 0);
	const inputsOf = (paths) => paths.flatMap((path) => Object.keys(outputs[path].inputs));
	const all = Object.keys(outputs).filter((path) => !path.endsWith(".map"));
	return {
		eagerGzip: gz([...eager]),
		totalGzip: gz(all),
		typeboxEager: inputsOf([...eager]).some((input) => input.includes("node_modules/typebox")),
		typeboxAnywhere: inputsOf(all).some((input) => /node_modules\/(typebox|@sinclair)/.test(input)),
		nodeImports: [...nodeImports],
	};
}

function fail(path) {
	throw new Error(`no output file for ${path}`);
}

const kb = (bytes) => (bytes / 1024).toFixed(1);
const rows = [];
for (const provider of providers) {
	const ours = await measure(app(...provider.ours, provider.api));
	const ref = await measure(app(...provider.ref, provider.api));
	const aiSdk = await measure(aiSdkApp(...provider.aiSdk));
	rows.push({ api: provider.api, ours, ref, aiSdk });
}
if (process.argv.includes("--json")) console.log(JSON.stringify(rows, null, 2));
console.log("| provider | ours: loaded at start (KB gz) | ours: with lazy chunks (KB gz) | typebox in ours (start / lazy) | pi-ai 0.73.1 (KB gz) | ratio | AI SDK 7 (KB gz) | ratio | Node builtins in pi-ai's bundle |");
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const { api, ours, ref, aiSdk } of rows) {
	const typebox = `${ours.typeboxEager ? "yes" : "no"} / ${ours.typeboxAnywhere ? "yes" : "no"}`;
	const ratio = (other) => `${(other.totalGzip / ours.totalGzip).toFixed(1)}×`;
	console.log(`| ${api} | ${kb(ours.eagerGzip)} | ${kb(ours.totalGzip)} | ${typebox} | ${kb(ref.totalGzip)} | ${ratio(ref)} | ${kb(aiSdk.totalGzip)} | ${ratio(aiSdk)} | ${ref.nodeImports.join(", ") || "none"} |`);
}
