import type { EntityManager } from "typeorm";
import type { Database } from "./database.js";

/**
 * Runs fn in one transaction. On the embedded database the pool has a single connection, so
 * everything inside fn MUST go through the given manager: a query on the pool would wait for
 * the connection this transaction holds, forever.
 */
export function withTransaction<T>(db: Pick<Database, "dataSource">, fn: (manager: EntityManager) => Promise<T>): Promise<T> {
  return db.dataSource.transaction(fn);
}
