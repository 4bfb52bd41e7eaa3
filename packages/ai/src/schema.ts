/**
 * typebox's `Type` builder and `Static`, re-exported for convenience from a separate entry,
 * `@pi/ai/schema`, so that `@pi/ai` itself never loads typebox. Importing this entry costs what
 * importing `typebox` costs (about 150–200 ms on a small machine).
 *
 * @example
 * import { Type } from "@pi/ai/schema";
 * const parameters = Type.Object({ city: Type.String() });
 */
export { type Static, type TSchema, Type } from "typebox";
