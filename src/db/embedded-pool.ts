import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { createPgConfig } from "@electric-sql/pglite/node-postgres";
import pg from "pg";
import { acquireDirectoryLock } from "./embedded-lock.js";

/**
 * Embedded PostgreSQL (PGlite) behind a node-postgres pool of exactly ONE connection: more than
 * one connection into a PGlite session interleaves protocol messages and returns rows to the
 * wrong query (reference/embedded-postgres.md). Everything (TypeORM, checkpointer, store, raw SQL)
 * must share this pool, and transactions must stay short.
 */
export async function openEmbeddedPool(dataDir: string): Promise<{ pool: pg.Pool; close(): Promise<void> }> {
  const lock = acquireDirectoryLock(dataDir);
  try {
    // pgvector, so the Store's semantic search has an HNSW index here too (CREATE EXTENSION runs
    // only when a deployment configures store.index).
    const pglite = await PGlite.create(path.join(dataDir, "pgdata"), { extensions: { vector } });
    const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1 });
    return {
      pool,
      async close() {
        try {
          await pglite.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}
