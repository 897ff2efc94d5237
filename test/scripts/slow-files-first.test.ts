import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVitest, type Vitest } from "vitest/node";
import { SLOW_FILES } from "../helpers/slow-files-first.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const relative = (moduleId: string) => path.relative(root, moduleId).split(path.sep).join("/");

// The order the full test run starts its files in (vitest.config.ts, test/helpers/slow-files-first.ts),
// read through vitest's own API as `vitest run` would compute it, without running anything.
describe("the test run's file order", () => {
  let vitest: Vitest;
  beforeAll(async () => {
    vitest = await createVitest("test", { watch: false, root, config: path.join(root, "vitest.config.ts") });
  });
  afterAll(async () => {
    await vitest?.close();
  });

  it("starts the slow files first, longest first, then every other file once", async () => {
    const specs = await vitest.globTestSpecifications();
    const Sequencer = vitest.config.sequence.sequencer;
    const sorted = (await new Sequencer(vitest).sort(specs)).map((spec) => relative(spec.moduleId));
    expect(sorted.slice(0, 3)).toEqual(["test/cli/installed-package.test.ts", "test/cron/real-clock.test.ts", "test/console/every-page-narrow.e2e.test.ts"]);
    expect(sorted.slice(0, SLOW_FILES.length)).toEqual(SLOW_FILES);
    expect([...sorted].sort()).toEqual(specs.map((spec) => relative(spec.moduleId)).sort());
  });
});
