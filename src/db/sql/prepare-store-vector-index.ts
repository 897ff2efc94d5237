import type pg from "pg";

/** Advisory lock key: processes starting together prepare the index one after the other. */
const VECTOR_INDEX_LOCK = 7_406_315_003;

/**
 * Whether the database can have pgvector: installed already, or available to CREATE EXTENSION
 * (managed PostgreSQL services and PGlite's bundled extension are; Debian's plain packages not).
 */
export async function isVectorExtensionAvailable(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ available: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available",
  );
  return rows[0]!.available;
}

/**
 * Gives store_vectors a `vector(dims)` column beside the float arrays, filled from them, with an
 * HNSW index (cosine). Per deployment rather than a migration: it depends on the extension and on
 * langgraph.json's dims, and a changed dims rebuilds the column. DDL in one transaction under an
 * advisory lock; `dims` is a validated integer, interpolated because DDL takes no parameters.
 * Returns the extension's version.
 */
export async function prepareStoreVectorIndex(pool: pg.Pool, dims: number): Promise<string> {
  if (!Number.isInteger(dims) || dims <= 0) throw new Error(`dims must be a positive integer, got ${dims}`);
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [VECTOR_INDEX_LOCK]);
    await client.query("CREATE EXTENSION IF NOT EXISTS vector");
    const { rows } = await client.query<{ type: string }>(
      `SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
       WHERE attrelid = 'store_vectors'::regclass AND attname = 'embedding_vector' AND NOT attisdropped`,
    );
    if (rows[0] && rows[0].type !== `vector(${dims})`) await client.query("ALTER TABLE store_vectors DROP COLUMN embedding_vector");
    await client.query(`ALTER TABLE store_vectors ADD COLUMN IF NOT EXISTS embedding_vector vector(${dims})`);
    await client.query(
      `UPDATE store_vectors SET embedding_vector = embedding::vector WHERE embedding_vector IS NULL AND cardinality(embedding) = $1`,
      [dims],
    );
    await client.query(
      "CREATE INDEX IF NOT EXISTS store_vectors_embedding_hnsw_idx ON store_vectors USING hnsw (embedding_vector vector_cosine_ops)",
    );
    const { rows: version } = await client.query<{ extversion: string }>("SELECT extversion FROM pg_extension WHERE extname = 'vector'");
    await client.query("COMMIT");
    return version[0]!.extversion;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
