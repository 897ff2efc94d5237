import type { EntityManager } from "typeorm";
import { poolOfDataSource } from "./data-source.js";

/**
 * A statement PostgreSQL parses once per connection, then only binds and executes.
 *
 * Why: with pg's default unnamed statements, PostgreSQL parses and plans every query text again
 * on every call. Logging every statement of the run bench showed parse + bind at ~40% of
 * PostgreSQL's time for a run's 15 statements (the checkpoint and trace inserts take 0.15-0.3 ms
 * just to parse). Named statements are parsed once per pooled connection, and after a few
 * executions PostgreSQL reuses a generic plan, so bind stops planning too.
 *
 * The name must be unique per text (pg refuses one name with two texts on a connection), and
 * only fixed texts belong here: pg keeps every prepared statement for the connection's life.
 */
export interface PreparedStatement {
  name: string;
  text: string;
}

export function preparedStatement(name: string, text: string): PreparedStatement {
  return { name: `hangar_${name}`, text };
}

/**
 * Runs a prepared statement on the pool. Inside a transaction (manager bound to a query runner)
 * it runs on the transaction's connection as a plain query instead: on the embedded database the
 * pool has one connection, which the transaction holds.
 */
export async function queryPrepared<Row>(
  manager: EntityManager,
  statement: PreparedStatement,
  values: unknown[],
): Promise<Row[]> {
  if (manager.queryRunner) return manager.query(statement.text, values);
  // TypeORM has no named statements; they run on the pool it was created on (data-source.ts).
  const result = await poolOfDataSource(manager.connection).query({ name: statement.name, text: statement.text, values });
  return result.rows as Row[];
}
