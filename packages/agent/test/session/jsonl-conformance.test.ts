import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createJsonlSessionStorage } from "@pi/agent-core/node";
import { sessionStorageConformance } from "@pi/agent-core/testing";

for (const durability of ["flush", "fsync"] as const) {
	sessionStorageConformance(`JSONL file (${durability})`, {
		createLog: () => {
			const folder = mkdtempSync(join(tmpdir(), "pi-session-conformance-"));
			const path = join(folder, "session.jsonl");
			return {
				open: () => createJsonlSessionStorage(path, { durability }),
				cleanup: async () => rmSync(folder, { recursive: true, force: true }),
			};
		},
	});
}
