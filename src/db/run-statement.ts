import type pg from "pg";
import { EntityManager } from "typeorm";
import { poolOfDataSource } from "./data-source.js";
import type { PreparedStatement } from "./prepared-statement.js";

/**
 * What a statement runs on: TypeORM's manager (bound to a transaction or not), or a node-postgres
 * pool or client. The checkpointer and the store reach the database through the pool, without
 * TypeORM, since graphs call them outside any request (db/checkpointer.ts, db/hangar-store.ts);
 * a client is a pool's connection held for a transaction (tx.ts withPoolTransaction) or a
 * connection of its own where the session matters: LISTEN (listen-channels.ts), the migration's
 * session advisory lock (migrate.ts), a new pool connection before it is handed out (database.ts).
 */
export type SqlHandle = EntityManager | pg.Pool | pg.ClientBase;

/** Every statement's answer, whatever its kind: the rows it returned and how many rows it touched. */
export interface StatementResult<Row> {
  rows: Row[];
  /** Rows inserted, updated or deleted (for a SELECT, the rows returned). */
  affected: number;
}

/**
 * THE way Hangar runs a statement (every file in db/sql goes through it; test/architecture checks
 * that none calls `query` itself). One answer shape for every statement kind: EntityManager.query
 * returns `[rows, count]` for UPDATE/DELETE but plain rows for SELECT/INSERT on PostgreSQL, which
 * callers had to remember.
 *
 * `statement` is the SQL text, or a named statement (db/prepared-statement.ts) that PostgreSQL
 * parses once per connection: named on the pool and on a pg client; inside a TypeORM transaction
 * it runs as plain text on the transaction's connection, since TypeORM sends no statement names (on
 * the embedded database the pool has one connection, which the transaction holds, so the pool is
 * not an option there). Outside a transaction a manager's statement runs on the pool it was
 * created on (data-source.ts), as TypeORM itself would, one pooled connection per statement.
 */
export async function runStatement<Row = Record<string, unknown>>(
  db: SqlHandle,
  statement: string | PreparedStatement,
  values: readonly unknown[] = [],
): Promise<StatementResult<Row>> {
  const text = typeof statement === "string" ? statement : statement.text;
  if (db instanceof EntityManager) {
    if (db.queryRunner) {
      const result = await db.queryRunner.query(text, [...values], true);
      const rows = result.records as Row[];
      return { rows, affected: result.affected ?? rows.length };
    }
    return runOnPg(poolOfDataSource(db.connection), statement, values);
  }
  return runOnPg(db, statement, values);
}

async function runOnPg<Row>(
  client: pg.Pool | pg.ClientBase,
  statement: string | PreparedStatement,
  values: readonly unknown[],
): Promise<StatementResult<Row>> {
  const config: pg.QueryConfig = typeof statement === "string" ? { text: statement, values: [...values] } : { ...statement, values: [...values] };
  const result = await client.query(config);
  const rows = result.rows as Row[];
  return { rows, affected: result.rowCount ?? rows.length };
}
