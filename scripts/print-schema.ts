import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { lexicographicSortSchema, printSchema } from "graphql";
import { schema } from "../src/graphql/schema.js";

/**
 * `npm run codegen`, step 1: prints the Pothos schema to the committed schema.graphql, types and
 * fields sorted so the file changes only when the schema does (not when module import order
 * does). `--stdout` prints instead of writing; test/graphql/schema.test.ts uses it to fail when
 * the committed file is stale.
 */
const printed = `${printSchema(lexicographicSortSchema(schema))}\n`;

if (process.argv.includes("--stdout")) {
  process.stdout.write(printed);
} else {
  const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../schema.graphql");
  writeFileSync(target, printed);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
