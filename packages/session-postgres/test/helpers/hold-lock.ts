/**
 * A child process that opens a session (taking its lock), says "locked" on stdout and waits to be
 * killed. Argv: connection string, schema, session id.
 */
import { createPostgresSessionStore } from "../../src/index.js";

const [connectionString, schema, sessionId] = process.argv.slice(2) as [string, string, string];
const store = createPostgresSessionStore({ connectionString, schema });
const session = await store.open(sessionId);
await session.appendMessage({ role: "user", content: "written before the crash", timestamp: Date.now() });
process.stdout.write("locked\n");
setInterval(() => undefined, 60_000);
