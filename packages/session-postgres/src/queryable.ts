import type { Pool } from "pg";

/** What the store needs of a `pg.Pool`: queries, and a client of its own for transactions. */
export type Queryable = Pick<Pool, "query" | "connect">;
