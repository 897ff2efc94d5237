import type { EncryptedField } from "../../domain/encryption.js";
import type { JsonObject } from "../../domain/json.js";
import { runStatement, type SqlHandle } from "../run-statement.js";

/** The rows whose sealed JSON fields a decrypt handler may replace, by their key columns (typed). */
const SEALED_TABLES = {
  threads: ["thread_id = $3::uuid"],
  assistants: ["assistant_id = $3::uuid"],
  assistant_versions: ["assistant_id = $3::uuid", "version = $4::integer"],
  runs: ["run_id = $3::uuid"],
  crons: ["cron_id = $3::uuid"],
  store_items: ["namespace = $3::text[]", "key = $4::text"],
} as const;

/** Columns named like the fields they hold (LangGraph's field names). */
const SEALED_COLUMNS: Record<EncryptedField, string | null> = {
  metadata: "metadata",
  values: "values",
  context: "context",
  kwargs: "kwargs",
  payload: "payload",
  value: "value",
  channel_value: null,
  pending_write: null,
};

/** Where a sealed field lives: its table and the values of that table's key columns, in order. */
export interface SealedRow {
  table: keyof typeof SEALED_TABLES;
  key: readonly unknown[];
}

/**
 * Stores `replacement` (new ciphertext a decrypt handler gave back, e.g. after a key rotation)
 * in place of `sealed`, only if the field still holds `sealed`: a write that came in between
 * wins, and the next read replaces that one if it needs it. Locks the row for this statement.
 * Returns whether it replaced.
 */
export async function replaceSealedField(
  db: SqlHandle,
  row: SealedRow,
  field: EncryptedField,
  sealed: JsonObject,
  replacement: JsonObject,
): Promise<boolean> {
  const { text, values } = replaceSealedFieldStatement(row, field, sealed, replacement);
  return (await runStatement(db, text, values)).affected > 0;
}

function replaceSealedFieldStatement(
  row: SealedRow,
  field: EncryptedField,
  sealed: JsonObject,
  replacement: JsonObject,
): { text: string; values: unknown[] } {
  const column = SEALED_COLUMNS[field];
  if (column === null) throw new Error(`${field} is not a JSON column`);
  const where = SEALED_TABLES[row.table].join(" AND ");
  return {
    text: `UPDATE ${row.table} SET "${column}" = $1::jsonb WHERE ${where} AND "${column}" = $2::jsonb`,
    values: [JSON.stringify(replacement), JSON.stringify(sealed), ...row.key],
  };
}
