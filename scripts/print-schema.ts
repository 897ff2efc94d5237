import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { printedSchema } from "../src/graphql/schema.js";

/**
 * `npm run codegen`, step 1: prints the Pothos schema to the committed schema.graphql (sorted:
 * src/graphql/schema.ts printedSchema, which test/graphql/schema.test.ts compares with the
 * committed file). `--stdout` prints instead of writing.
 */
const printed = printedSchema();

if (process.argv.includes("--stdout")) {
  process.stdout.write(printed);
} else {
  const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../schema.graphql");
  writeFileSync(target, printed);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
