import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const entry = fileURLToPath(new URL("../../src/testing/index.ts", import.meta.url));

describe("importing @pi/ai/testing", () => {
	it("does not load node:http until a server starts", () => {
		const script = `
			const loaded = () => process.moduleLoadList.filter((name) => name === "NativeModule http");
			const testing = await import(${JSON.stringify(entry)});
			const afterImport = loaded().length;
			const server = await testing.startReplayServer();
			const afterStart = loaded().length;
			await server.close();
			console.log(JSON.stringify({ afterImport, afterStart }));
		`;
		const output = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
		expect(JSON.parse(output)).toEqual({ afterImport: 0, afterStart: 1 });
	});
});

describe("importing @pi/ai/testing without vitest", () => {
	it("never imports vitest (only @pi/ai/testing/vitest does)", () => {
		const hooks = `export async function resolve(specifier, context, next) { if (specifier === "vitest" || specifier.startsWith("vitest/")) throw new Error("vitest was imported by " + context.parentURL); return next(specifier, context); }`;
		const register = `import { register } from "node:module"; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
		const script = `const testing = await import(${JSON.stringify(entry)}); console.log(typeof testing.startRecorder);`;
		const output = execFileSync(process.execPath, ["--import", `data:text/javascript,${encodeURIComponent(register)}`, "--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
		expect(output.trim()).toBe("function");
		const vitestEntry = fileURLToPath(new URL("../../src/testing/vitest.ts", import.meta.url));
		const failing = `await import(${JSON.stringify(vitestEntry)});`;
		expect(() => execFileSync(process.execPath, ["--import", `data:text/javascript,${encodeURIComponent(register)}`, "--import", "tsx", "--input-type=module", "-e", failing], { encoding: "utf8", stdio: "pipe" })).toThrow(/vitest was imported/);
	});
});
