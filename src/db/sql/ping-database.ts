import { runStatement, type SqlHandle } from "../run-statement.js";

/** A round trip to PostgreSQL on a pooled connection: resolves when the database answers. */
export async function pingDatabase(db: SqlHandle): Promise<void> {
  await runStatement(db, "SELECT 1");
}
