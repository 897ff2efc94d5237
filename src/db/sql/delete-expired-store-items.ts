import type { SqlClient } from "./store-sql.js";
import { runStatement } from "../run-statement.js";

/** Advisory lock key of the store sweep (arbitrary, fixed: every Hangar process uses this one). */
const STORE_SWEEP_LOCK = 7_406_315_001;

/**
 * Deletes up to `batchSize` expired items (embeddings go by cascade), but only in the process
 * that wins the transaction-scoped advisory lock: while one sweeps, another's statement deletes
 * nothing and returns at once instead of queueing behind the same rows. SKIP LOCKED leaves rows
 * that a writer is replacing right now for the next sweep.
 */
export async function deleteExpiredStoreItems(client: SqlClient, batchSize: number): Promise<number> {
  const { affected } = await runStatement(
    client,
    `WITH sweeper AS (SELECT pg_try_advisory_xact_lock($1) AS is_sweeper),
     expired AS (
       SELECT i.namespace, i.key FROM store_items i
       WHERE (SELECT is_sweeper FROM sweeper) AND i.expires_at <= now()
       LIMIT $2 FOR UPDATE SKIP LOCKED
     )
     DELETE FROM store_items i USING expired
     WHERE i.namespace = expired.namespace AND i.key = expired.key`,
    [STORE_SWEEP_LOCK, batchSize],
  );
  return affected;
}
