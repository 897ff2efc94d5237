import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { generate } from "@graphql-codegen/cli";
import { describe, expect, it } from "vitest";
import codegenConfig from "../../codegen.js";

// CI runs this: a schema or operation change must come with `npm run codegen` and the regenerated
// files committed, so that every schema change shows up in review.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const committed = (relative: string) => readFileSync(path.join(root, relative), "utf8");

/**
 * The exact script `npm run codegen` runs, in its own Node process: inside Vitest our sources
 * would get graphql's ESM build while Pothos gets its CommonJS one, and graphql refuses to print
 * a schema built by another copy.
 */
async function printSchemaScript(): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", path.join(root, "scripts/print-schema.ts"), "--stdout"],
    { cwd: root, env: { ...process.env, NODE_ENV: "production" } },
  );
  return stdout;
}

describe("committed GraphQL artifacts", () => {
  it("schema.graphql is what the builder prints, sorted, every time (run `npm run codegen` if not)", async () => {
    const [first, second] = await Promise.all([printSchemaScript(), printSchemaScript()]);
    expect(first).toBe(second);
    expect(first).toBe(committed("schema.graphql"));
  }, 60_000);

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
