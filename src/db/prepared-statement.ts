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
 * db/run-statement.ts runs them (named on the pool; as plain text inside a TypeORM transaction).
 */
export interface PreparedStatement {
  name: string;
  text: string;
}

export function preparedStatement(name: string, text: string): PreparedStatement {
  return { name: `hangar_${name}`, text };
}
