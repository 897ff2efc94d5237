import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "@graphql-codegen/cli";
import { describe, expect, it } from "vitest";
import codegenConfig from "../../codegen.js";
import { printedSchema } from "../../src/graphql/schema.js";

// CI runs this: a schema or operation change must come with `npm run codegen` and the regenerated
// files committed, so that every schema change shows up in review.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const committed = (relative: string) => readFileSync(path.join(root, relative), "utf8");

describe("committed GraphQL artifacts", () => {
  it("schema.graphql is what the builder prints, sorted, every time (run `npm run codegen` if not)", async () => {
    // The function `npm run codegen` prints with (scripts/print-schema.ts), here in the test's
    // process (vitest.config.ts gives our sources and Pothos the same graphql copy): the committed
    // file, printed by another process, is the second print it must equal.
    expect(printedSchema()).toBe(committed("schema.graphql"));
  });

  it("test/graphql/generated is what codegen makes of schema.graphql and the operations", async () => {
    const outputs: Array<{ filename: string; content: string }> = await generate(
      { ...codegenConfig, cwd: root, silent: true },
      false,
    );
    expect(outputs.length).toBeGreaterThan(0);
    for (const output of outputs) {
      expect(output.content, output.filename).toBe(committed(path.relative(root, path.resolve(root, output.filename))));
    }
  }, 60_000);
});
