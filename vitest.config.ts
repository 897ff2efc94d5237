import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/helpers/global-setup.ts"],
    // Each file clones its own database, so files run in parallel; servers take a moment to boot.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
