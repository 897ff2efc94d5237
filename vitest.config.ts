import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";
import { CONDITION_TIMEOUT_MS } from "./test/helpers/condition-timeout.js";
import { SlowFilesFirst } from "./test/helpers/slow-files-first.js";

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
    globalSetup: ["test/helpers/node-version-setup.ts", "test/helpers/global-setup.ts"],
    // Fails a file that leaves a test server running or a test database behind.
    setupFiles: ["test/helpers/leak-check.ts"],
    // Each file clones its own database, so files run in parallel; servers take a moment to boot.
    // Two workers share 2 cores with PostgreSQL and Chromium: a browser flow that takes 10 s
    // alone took over 30 s at a load average of 24, so a test gets 60 s before it counts as stuck.
    testTimeout: 60_000,
    // expect.poll waits for a condition; vitest's default 1 s gives up on conditions that a
    // loaded machine meets later (test/helpers/condition-timeout.ts).
    expect: { poll: { timeout: CONDITION_TIMEOUT_MS } },
    hookTimeout: 60_000,
    pool: "forks",
    // Two workers even on a 2-core machine (vitest's default there is one: cores - 1). A test file
    // spends most of its time waiting on PostgreSQL, Chromium or a child process rather than
    // computing, so a second file fits in those waits.
    maxWorkers: 2,
    // The slowest files start first, so that no long file runs alone at the end (a fresh checkout
    // has no cached durations for vitest to order by): test/helpers/slow-files-first.ts.
    sequence: { sequencer: SlowFilesFirst },
    poolOptions: {
      forks: {
        // The langsmith tests call readRun() and listRuns() on purpose (clients in use still call
        // them); their deprecation notices are not news in every run's output.
        execArgv: ["--disable-warning=LANGSMITH_DEPRECATED_READ_RUN", "--disable-warning=LANGSMITH_DEPRECATED_LIST_RUNS"],
      },
    },
    // @langchain/langgraph-checkpoint-validation's specs call describe/it/expect as globals.
    globals: true,
    // Files share a worker's module cache: each file still gets its own database and servers, and
    // importing the server and LangChain once per worker instead of once per file cut module
    // collection from ~73 s to ~9 s over the GraphQL tests (17 files). Spies are restored per file.
    isolate: false,
  },
});
