import fs from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The test files that take longest (10-110 s each; the rest take a few seconds at most), longest
 * first. They start before all others so that none of them is left running alone at the end while
 * the other worker has nothing to do. Vitest's own order cannot know them on a fresh checkout: it
 * sorts by the durations it cached in node_modules/.vite (gone after `npm ci`, as in CI), else by
 * file size, and these files are small (the wall-clock cron test is 60 lines and may sleep 60 s),
 * so a full run without cache started them among the last. The order only changes wall time.
 */
export const SLOW_FILES = [
  // npm pack + npm install of the package, then three start-ups of it.
  "test/cli/installed-package.test.ts",
  // Sleeps until the next minute boundary: it idles beside the install above.
  "test/cron/real-clock.test.ts",
  "test/console/every-page-narrow.e2e.test.ts",
  "test/console/studio.e2e.test.ts",
  "test/console/console.e2e.test.ts",
  "test/conformance/input-fuzz.test.ts",
  "test/smoke/embedded-database.test.ts",
  "test/conformance/runs-stream-processes.test.ts",
  "test/console/console-defects.e2e.test.ts",
  "test/console/disconnected.e2e.test.ts",
  "test/console/step-debugger.e2e.test.ts",
  "test/conformance/runs-durability.test.ts",
  "test/graphs/graph-schemas.satisfiable.test.ts",
  "test/protocol/protocol-v2-stream-start.test.ts",
  "test/cli/prices.test.ts",
  "test/console/edit-state-approval.e2e.test.ts",
  "test/graphs/graph-registry.load-graph-registry.test.ts",
  "test/db/embedded-pool.test.ts",
  "test/graphql/input-fuzz.test.ts",
  "test/conformance/deployment-loading.test.ts",
];

/** SLOW_FILES in their order first, then the rest in vitest's own order (BaseSequencer). */
export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    // A renamed or deleted file would silently drop out of the list: say so instead.
    const missing = SLOW_FILES.filter((file) => !fs.existsSync(path.join(root, file)));
    if (missing.length > 0) throw new Error(`test/helpers/slow-files-first.ts lists files that do not exist: ${missing.join(", ")}`);
    const rank = (spec: TestSpecification) => {
      const index = SLOW_FILES.indexOf(path.relative(root, spec.moduleId).split(path.sep).join("/"));
      return index === -1 ? SLOW_FILES.length : index;
    };
    // Array sort is stable: files of equal rank (all the unlisted ones) keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
