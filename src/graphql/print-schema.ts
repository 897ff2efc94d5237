import { lexicographicSortSchema, printSchema } from "graphql";
import { schema } from "./schema.js";

/**
 * The schema as committed in schema.graphql: types and fields sorted, so the file changes only
 * when the schema does (not when a module's import order does). Used by scripts/print-schema.ts
 * and by the test that fails when schema.graphql is stale.
 */
export function printSortedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
