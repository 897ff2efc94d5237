import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Packages the server imports on first use only (`await import(...)`), never at start-up: what a
 * module holds stays in the live heap for the life of the process, and V8 lets the heap grow to a
 * multiple of what is live before it collects, so each MB held from start-up costs several MB of
 * RSS under load (issue 31, target 4).
 */
const LAZY_PACKAGES: Record<string, string> = {
  // 9 MB of source holding a 10 MB string (~29 MB of heap): only a browser opening GraphiQL needs it.
  "@graphql-yoga/render-graphiql": "src/graphql/yoga.ts",
};

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src");
const STATIC_IMPORT = /(?:^|\s)(?:import|export)\s[^"';]*?from\s*"([^"]+)"|(?:^|\s)import\s*"([^"]+)"/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

describe("packages loaded on first use", () => {
  it("are imported dynamically, never by a static import", () => {
    const staticImports: string[] = [];
    for (const file of sourceFiles(SRC)) {
      for (const match of fs.readFileSync(file, "utf8").matchAll(STATIC_IMPORT)) {
        const specifier = match[1] ?? match[2]!;
        if (Object.keys(LAZY_PACKAGES).some((name) => specifier === name || specifier.startsWith(`${name}/`))) {
          staticImports.push(`${path.relative(SRC, file)}: ${specifier}`);
        }
      }
    }
    expect(staticImports).toEqual([]);
  });

  it("are still imported where the list says (the list is not stale)", () => {
    for (const [name, file] of Object.entries(LAZY_PACKAGES)) {
      expect(fs.readFileSync(path.resolve(SRC, "..", file), "utf8")).toContain(`import("${name}")`);
    }
  });
});
