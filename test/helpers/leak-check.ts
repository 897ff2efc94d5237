import { afterAll } from "vitest";
import { retireLeakedTestDatabases } from "./test-database.js";
import { closeLeakedTestServers } from "./test-server.js";

/**
 * Runs after every test file's own hooks (vitest.config.ts setupFiles; after-hooks run in reverse
 * order of registration, and this one is registered first): a file that leaves a test server
 * running or a test database not retired fails, naming what it left and which test started it.
 * What it left is then closed and retired, so the next file of the same worker starts clean.
 */
afterAll(async () => {
  const leaked = [...(await closeLeakedTestServers()), ...(await retireLeakedTestDatabases())];
  if (leaked.length > 0) throw new Error(`this test file left ${leaked.join("; ")} behind: close and retire them in afterAll`);
});
