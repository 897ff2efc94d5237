import type { EntityManager } from "typeorm";
import type { Database } from "./database.js";
import { withRetry, type RetryOptions } from "./retry.js";

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
