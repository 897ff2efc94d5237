import type { EntityManager } from "typeorm";
import type pg from "pg";
import type { Database } from "./database.js";
import { withRetry, type RetryOptions } from "./retry.js";
import { runStatement } from "./run-statement.js";

/**
 * Runs fn in one transaction, retried as a whole (retry.ts) when PostgreSQL rolled it back for a
 * serialization failure or a deadlock, or could not start it (57P03), so fn must keep its side
 * effects inside the transaction. Pass `retryOn: "idempotent"` only when running fn twice is
 * harmless, to also retry it after a lost connection.
 *
 * On the embedded database the pool has a single connection, so everything inside fn MUST go
 * through the given manager: a query on the pool would wait for the connection this transaction
 * holds, forever.
 */
export function withTransaction<T>(
  db: Pick<Database, "dataSource">,
  fn: (manager: EntityManager) => Promise<T>,
  options: Pick<RetryOptions, "retryOn"> = { retryOn: "rolled-back" },
): Promise<T> {
  return withRetry(() => db.dataSource.transaction(fn), options);
}

/**
 * The pg connection a TypeORM transaction holds, for code below TypeORM that must write inside the
 * transaction (the checkpointer: db/checkpointer.ts inTransaction). QueryRunner.connect answers the
 * connection the runner already holds.
 */
export async function connectionOfTransaction(manager: EntityManager): Promise<pg.PoolClient> {
  if (!manager.queryRunner) throw new Error("connectionOfTransaction needs a manager inside withTransaction");
  return (await manager.queryRunner.connect()) as pg.PoolClient;
}

/**
 * Runs fn in one transaction on a client of a node-postgres pool, for statements below TypeORM
 * (transaction-scoped settings such as `set_config(…, true)`, advisory transaction locks, DDL).
 * Rolls back on any error and always returns the client. No retry: callers that want one wrap
 * it in withRetry, knowing whether fn is idempotent.
 */
export async function withPoolTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await runStatement(client, "BEGIN");
    const result = await fn(client);
    await runStatement(client, "COMMIT");
    return result;
  } catch (error) {
    // The rollback's own failure (a lost connection) must not hide the error that caused it.
    await runStatement(client, "ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
