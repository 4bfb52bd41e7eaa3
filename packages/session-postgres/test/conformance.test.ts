import { randomUUID } from "node:crypto";
import { sessionStorageConformance } from "@pi/agent-core/testing";
import { afterAll } from "vitest";
import { createPostgresSessionStore } from "../src/index.js";
import { dropSchema, freshSchemaName, testPool } from "./helpers/fresh-schema.js";

const pool = testPool();
const schema = freshSchemaName("conformance");
const store = createPostgresSessionStore({ pool, schema });
afterAll(async () => {
	await dropSchema(pool, schema);
	await pool.end();
});

sessionStorageConformance("PostgreSQL", {
	createLog: () => {
		const sessionId = randomUUID();
		return {
			open: () => store.storage(sessionId),
			cleanup: async () => {
				await pool.query(`DELETE FROM "${schema}".sessions WHERE id = $1`, [sessionId]);
			},
		};
	},
});
