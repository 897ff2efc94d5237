import type pg from "pg";

/**
 * Ends a pool and resolves once its connections have closed. pool.end() resolves as soon as it
 * has asked them to close, so a database retired right after (test-database.ts terminates its
 * sessions) can end one first: the FATAL reaches the pool as an 'error' event, an uncaught
 * exception without a listener, which fails the whole test run although every test passed (CI
 * at 4e59e29, test/db/pool-share.test.ts; a loop of end-then-terminate hit it 10 times in 50).
 */
export async function endPool(pool: pg.Pool): Promise<void> {
  let open = pool.totalCount;
  const closed = new Promise<void>((resolve) => {
    if (open === 0) return resolve();
    // pg-pool emits 'remove' once a client's connection has ended.
    pool.on("remove", () => {
      open -= 1;
      if (open === 0) resolve();
    });
  });
  await pool.end();
  await closed;
}
