import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { printSortedSchema } from "../src/graphql/print-schema.js";

/** `npm run codegen`, step 1: writes the committed schema.graphql from the Pothos builder. */
const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../schema.graphql");
writeFileSync(target, printSortedSchema());
console.log(`wrote ${path.relative(process.cwd(), target)}`);
