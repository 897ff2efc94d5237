import type pg from "pg";
import { withPoolTransaction } from "../tx.js";
import { runStatement } from "../run-statement.js";

/** Advisory lock key: processes starting together prepare the index one after the other. */
const VECTOR_INDEX_LOCK = 7_406_315_003;

/**
 * Whether the database can have pgvector: installed already, or available to CREATE EXTENSION
 * (managed PostgreSQL services and PGlite's bundled extension are; Debian's plain packages not).
 */
export async function isVectorExtensionAvailable(pool: pg.Pool): Promise<boolean> {
  const { rows } = await runStatement<{ available: boolean }>(
    pool,
    "SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available",
  );
  return rows[0]!.available;
}

/** Bytes one vector takes in pgvector's in-memory HNSW graph besides its floats (neighbour lists, m = 16). */
const HNSW_ELEMENT_OVERHEAD_BYTES = 600;
const MIN_BUILD_MEMORY_MB = 64;
const MAX_BUILD_MEMORY_MB = 1024;

/**
 * maintenance_work_mem for building the HNSW index over the vectors present: when the graph does
 * not fit, pgvector goes on building it on disk, 10–50× slower (on the embedded database, 100,000
 * 256-dim vectors did not finish in 10 minutes with PostgreSQL's 64 MB default). Sized to the
 * graph with a margin and capped, because the memory is the server's (or the WASM heap's).
 * Only when the index does not exist yet: otherwise CREATE INDEX IF NOT EXISTS builds nothing.
 */
async function hnswBuildMemory(client: pg.PoolClient, dims: number): Promise<string> {
  const { rows } = await runStatement<{ vectors: string; indexed: boolean }>(
    client,
    `SELECT (SELECT count(*) FROM store_vectors WHERE embedding_vector IS NOT NULL) AS vectors,
            to_regclass('store_vectors_embedding_hnsw_idx') IS NOT NULL AS indexed`,
  );
  if (rows[0]!.indexed) return `${MIN_BUILD_MEMORY_MB}MB`;
  const graphMb = (Number(rows[0]!.vectors) * (dims * 4 + HNSW_ELEMENT_OVERHEAD_BYTES) * 1.25) / 2 ** 20;
  return `${Math.round(Math.min(MAX_BUILD_MEMORY_MB, Math.max(MIN_BUILD_MEMORY_MB, graphMb)))}MB`;
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
  return withPoolTransaction(pool, async (client) => {
    await runStatement(client, "SELECT pg_advisory_xact_lock($1)", [VECTOR_INDEX_LOCK]);
    await runStatement(client, "CREATE EXTENSION IF NOT EXISTS vector");
    const { rows } = await runStatement<{ type: string }>(
      client,
      `SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
       WHERE attrelid = 'store_vectors'::regclass AND attname = 'embedding_vector' AND NOT attisdropped`,
    );
    if (rows[0] && rows[0].type !== `vector(${dims})`) await runStatement(client, "ALTER TABLE store_vectors DROP COLUMN embedding_vector");
    await runStatement(client, `ALTER TABLE store_vectors ADD COLUMN IF NOT EXISTS embedding_vector vector(${dims})`);
    await runStatement(
      client,
      `UPDATE store_vectors SET embedding_vector = embedding::vector WHERE embedding_vector IS NULL AND cardinality(embedding) = $1`,
      [dims],
    );
    await runStatement(client, "SELECT set_config('maintenance_work_mem', $1, true)", [await hnswBuildMemory(client, dims)]);
    await runStatement(
      client,
      "CREATE INDEX IF NOT EXISTS store_vectors_embedding_hnsw_idx ON store_vectors USING hnsw (embedding_vector vector_cosine_ops)",
    );
    const { rows: version } = await runStatement<{ extversion: string }>(client, "SELECT extversion FROM pg_extension WHERE extname = 'vector'");
    return version[0]!.extversion;
  });
}
