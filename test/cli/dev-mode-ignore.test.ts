import path from "node:path";
import { describe, expect, it } from "vitest";
import { isIgnoredChange } from "../../src/dev-mode.js";

/** Which changes under a deployment folder make `hangar dev` restart the server. */
describe("hangar dev: changes that restart", () => {
  const root = path.resolve("/work/deployment");
  const dataDir = path.join(root, "state", "db");
  const ignored = (relative: string) => isIgnoredChange(root, dataDir, path.join(root, relative));

  it("restarts for the deployment's own files, langgraph.json and .env files", () => {
    for (const file of ["langgraph.json", "src/graph.ts", "src/agents/tools.js", "prompts/system.md", ".env", ".env.local", "src"]) {
      expect(ignored(file), file).toBe(false);
    }
  });

  it("ignores node_modules, hidden folders and files, editor leftovers and the embedded database", () => {
    for (const file of ["node_modules/x/index.js", "packages/a/node_modules/y.js", ".git/index", ".hangar/pgdata/base/1", ".vscode/settings.json", ".DS_Store", "src/graph.ts~", "src/.graph.ts.swp", "state/db", "state/db/pg_wal/1"]) {
      expect(ignored(file), file).toBe(true);
    }
  });

  it("a database folder outside the deployment changes nothing inside it", () => {
    expect(isIgnoredChange(root, "/elsewhere/db", path.join(root, "state/db/x"))).toBe(false);
  });
});
