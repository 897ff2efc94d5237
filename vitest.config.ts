import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    alias: [
      // Node loads graphql's CommonJS build (it has no "exports" map) for us, Pothos and Yoga
      // alike; Vite would hand our sources its .mjs build instead, giving two graphql copies
      // whose GraphQLError/schema classes differ. Pin the one production uses.
      { find: /^graphql$/, replacement: require.resolve("graphql") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/helpers/global-setup.ts"],
    // Each file clones its own database, so files run in parallel; servers take a moment to boot.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // @langchain/langgraph-checkpoint-validation's specs call describe/it/expect as globals.
    globals: true,
  },
});
