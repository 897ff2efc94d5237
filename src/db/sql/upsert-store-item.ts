import type { AuthFilters } from "../../domain/auth-filter.js";
import { matchesAccessFilters, SqlParameters, STORE_ITEM_COLUMNS, type SqlClient, type StoreItemRow } from "./store-sql.js";
import { runStatement } from "../run-statement.js";

export interface StoreItemWrite {
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  /** The context `value` was sealed with (null: written in clear). */
  encryptionContext: Record<string, unknown> | null;
  /** null: never expires. */
  ttlMinutes: number | null;
  /** The item's embeddings, one per indexed field; every other embedding of the item goes. */
  embeddings: Array<{ fieldPath: string; vector: number[] }>;
  /** Only an existing item these filters match may be replaced. */
  access?: AuthFilters;
  /** The database has pgvector's embedding_vector column (db/sql/prepare-store-vector-index.ts). */
  hasVectorColumn: boolean;
}

/**
 * Inserts or replaces an item and its embeddings in one statement, so a reader never sees the
 * new value with the old vectors (or half of them). Locks the item's row (and its vector rows).
 * Returns the item as written, or null, writing nothing, when an item exists that `access` does
 * not match.
 * An expired item that was not swept yet is replaced as a new one (its created_at restarts).
 */
export async function upsertStoreItem(client: SqlClient, write: StoreItemWrite): Promise<StoreItemRow | null> {
  const parameters = new SqlParameters();
  const namespace = parameters.add(write.namespace);
  const key = parameters.add(write.key);
  const value = parameters.add(JSON.stringify(write.value));
  const ttl = parameters.add(write.ttlMinutes);
  const encryptionContext = parameters.add(write.encryptionContext === null ? null : JSON.stringify(write.encryptionContext));
  const embeddings = parameters.add(JSON.stringify(write.embeddings.map((entry) => ({ field_path: entry.fieldPath, embedding: entry.vector }))));
  const access = matchesAccessFilters(write.access, parameters);
  const { rows } = await runStatement<StoreItemRow>(
    client,
    `WITH item AS (
       INSERT INTO store_items AS i (namespace, key, value, ttl_minutes, expires_at, encryption_context)
       VALUES (${namespace}::text[], ${key}, ${value}::jsonb, ${ttl}::float8, now() + ${ttl}::float8 * interval '1 minute', ${encryptionContext}::jsonb)
       ON CONFLICT (namespace, key) DO UPDATE
         SET value = EXCLUDED.value,
             encryption_context = EXCLUDED.encryption_context,
             created_at = CASE WHEN i.expires_at <= now() THEN now() ELSE i.created_at END,
             updated_at = now(),
             ttl_minutes = EXCLUDED.ttl_minutes,
             expires_at = EXCLUDED.expires_at
         WHERE ${access}
       RETURNING ${STORE_ITEM_COLUMNS}
     ), fields AS (
       SELECT f.field_path, ARRAY(SELECT jsonb_array_elements_text(f.embedding)::real) AS embedding
       FROM jsonb_to_recordset(${embeddings}::jsonb) AS f(field_path text, embedding jsonb)
     ), stale AS (
       DELETE FROM store_vectors v USING item
       WHERE v.namespace = item.namespace AND v.key = item.key
         AND v.field_path NOT IN (SELECT field_path FROM fields)
     ), vectors AS (
       INSERT INTO store_vectors (namespace, key, field_path, embedding${write.hasVectorColumn ? ", embedding_vector" : ""})
       SELECT item.namespace, item.key, fields.field_path, fields.embedding${write.hasVectorColumn ? ", fields.embedding::vector" : ""}
       FROM item, fields
       ON CONFLICT (namespace, key, field_path) DO UPDATE
         SET embedding = EXCLUDED.embedding${write.hasVectorColumn ? ", embedding_vector = EXCLUDED.embedding_vector" : ""}
     )
     SELECT * FROM item`,
    parameters.values,
  );
  return rows[0] ?? null;
}
