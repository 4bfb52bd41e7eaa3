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
