import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { createPgConfig } from "@electric-sql/pglite/node-postgres";
import pg from "pg";
import { DEFAULT_EMBEDDED_SHARED_BUFFERS } from "../config.js";
import { acquireDirectoryLock } from "./embedded-lock.js";

/**
 * Settings for the embedded engine, passed at every start (not written into the data directory,
 * so they also apply to directories created by older versions). PGlite's WebAssembly memory only
 * ever grows, so whatever a setting lets PostgreSQL allocate stays resident until the process
 * exits: PostgreSQL's defaults (128 MB of shared buffers, 64 MB per maintenance operation) cost
 * ~140 MB more RSS than these (measured: 299 → 160 MB for the engine alone). A smaller buffer
 * pool means more page reads through PGlite's file layer, which is cheap for rows but not for a
 * large HNSW index: 100,000 256-dim vectors searched with 16 MB took p99 221 ms, with 256 MB
 * 43 ms. So the buffer pool is the operator's choice (HANGAR_EMBEDDED_SHARED_BUFFERS).
 */
const EMBEDDED_MAINTENANCE_WORK_MEM = "16MB";

function embeddedStartParams(sharedBuffers: string): string[] {
  const settings = { shared_buffers: sharedBuffers, maintenance_work_mem: EMBEDDED_MAINTENANCE_WORK_MEM };
  return [...PGlite.defaultStartParams, ...Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`])];
}

/**
 * Embedded PostgreSQL (PGlite) behind a node-postgres pool of exactly ONE connection: more than
 * one connection into a PGlite session interleaves protocol messages and returns rows to the
 * wrong query, loses data silently or hangs for good (measured with pglite 0.5.14; upstream
 * pglite issues #1046 and #985). Everything (TypeORM, checkpointer, store, raw SQL) must share
 * this pool, and transactions must stay short: a query on a second connection while a
 * transaction is open deadlocks.
 */
export async function openEmbeddedPool(
  dataDir: string,
  options: { sharedBuffers?: string } = {},
): Promise<{ pool: pg.Pool; close(): Promise<void> }> {
  const lock = acquireDirectoryLock(dataDir);
  try {
    const pgdata = path.join(dataDir, "pgdata");
    if (!fs.existsSync(path.join(pgdata, "PG_VERSION"))) await initializeDataDirectory(pgdata);
    // pgvector, so the Store's semantic search has an HNSW index here too (CREATE EXTENSION runs
    // only when a deployment configures store.index).
    const pglite = await PGlite.create(pgdata, { extensions: { vector }, startParams: embeddedStartParams(options.sharedBuffers ?? DEFAULT_EMBEDDED_SHARED_BUFFERS) });
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

/**
 * Creates a new data directory (initdb) in a child process. PGlite runs initdb in a second
 * engine instance whose WebAssembly memory (~500 MB at its peak) stays in this process until a
 * garbage collection that an idle server may never do; a child returns all of it when it exits.
 * The directory is built beside its final place and renamed into it, so a start interrupted
 * during initdb leaves no half-initialized database behind (the next start redoes it).
 */
async function initializeDataDirectory(pgdata: string): Promise<void> {
  const partial = `${pgdata}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  if (fs.existsSync(pgdata)) {
    if (fs.readdirSync(pgdata).length > 0) {
      throw new Error(`${pgdata} holds files but no database (no PG_VERSION): move it away and start again`);
    }
    fs.rmdirSync(pgdata);
  }
  // The child loads PGlite's CommonJS build by path: it shares nothing with this process, and a
  // path resolves the same from compiled code and from sources under a test runner.
  const script =
    "const [entry, dir, startParams] = JSON.parse(process.argv[1]);" +
    "require(entry).PGlite.create(dir, { startParams }).then((db) => db.close());";
  const args = JSON.stringify([createRequire(import.meta.url).resolve("@electric-sql/pglite"), partial, embeddedStartParams(DEFAULT_EMBEDDED_SHARED_BUFFERS)]);
  const child = spawn(process.execPath, ["--eval", script, args], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  if (code !== 0) {
    throw new Error(`Creating the embedded database in ${pgdata} failed (exit code ${code}): ${stderr.trim().slice(-2000)}`);
  }
  fs.renameSync(partial, pgdata);
}
