/**
 * Store benchmark, against a Hangar server (child process) serving the example deployment (whose
 * store.index is the offline 256-dim embedding, examples/embed.ts):
 *
 * 1. PostgreSQL: putItem, getItem and filtered searchItems through the SDK at BENCH_CONCURRENCY
 *    (16; BENCH_OPERATIONS each, 2000), beside threads.create as the REST CRUD yardstick.
 * 2. Semantic search over BENCH_STORE_ITEMS (100,000) items with random unit vectors, bulk-loaded
 *    in SQL: p50/p99 of searchItems({query}) one at a time, on PostgreSQL (the exact scan when its
 *    server has no pgvector; BENCH_EXACT_QUERIES, 20) and on the embedded database (pgvector's
 *    HNSW; BENCH_HNSW_QUERIES, 200). The embedded data directory is loaded in this process first,
 *    then served; the HNSW index is built by the server's start-up (its time is reported).
 *
 * With BENCH_BASELINE (another built checkout) the operations of 1. run on both builds in turns,
 * with this build over the baseline; semantic search runs on this build.
 *
 * BENCH_STORE_PHASES=postgres,embedded selects phases. A failing phase is reported, and the
 * other phase's results are still printed and written.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { Client } from "@langchain/langgraph-sdk";
import pg from "pg";
import { openDatabase, type Database } from "../src/db/database.js";
import { migrateDatabase } from "../src/db/migrate.js";
import { createLogger } from "../src/logger.js";
import {
  CpuMeter,
  RESULTS_DIR,
  buildsUnderTest,
  createBenchDatabase,
  envInt,
  inTurn,
  percentiles,
  printTable,
  ratioRows,
  repoState,
  runLoops,
  startServerProcess,
  waitForQuietMachine,
  writeResults,
  type BuildUnderTest,
  type ResultRow,
  type ServerProcess,
} from "./bench-kit.js";

const CONFIG = "examples/langgraph.json";
const DIMS = 256;
const CONCURRENCY = envInt("BENCH_CONCURRENCY", 16);
const OPERATIONS = envInt("BENCH_OPERATIONS", 2000);
const SEMANTIC_ITEMS = envInt("BENCH_STORE_ITEMS", 100_000);
const EXACT_QUERIES = envInt("BENCH_EXACT_QUERIES", 20);
const HNSW_QUERIES = envInt("BENCH_HNSW_QUERIES", 200);
const LARGE_SHARED_BUFFERS = process.env.BENCH_STORE_SHARED_BUFFERS ?? "256MB";
const TURNS = envInt("BENCH_STORE_TURNS", 2);
const PHASES = new Set((process.env.BENCH_STORE_PHASES ?? "postgres,embedded").split(",").map((phase) => phase.trim()));
const WORDS = ["pizza", "weather", "music", "travel", "garden", "finance", "chess", "coffee", "river", "engine"];

async function measureOps(server: ServerProcess, database: string, name: string, operation: (index: number) => Promise<unknown>) {
  const machine = await waitForQuietMachine();
  const latencies: number[] = [];
  const cpu = await CpuMeter.start(server, database);
  const seconds = await runLoops(OPERATIONS, CONCURRENCY, async (index) => {
    const t0 = performance.now();
    await operation(index);
    latencies.push(performance.now() - t0);
  });
  const usage = await cpu.stop(OPERATIONS);
  return {
    scenario: name,
    busy_before_pct: machine.busy_pct,
    n: OPERATIONS,
    conc: CONCURRENCY,
    per_s: Math.round(OPERATIONS / seconds),
    ...percentiles(latencies),
    server_cpu_ms_op: usage.server_cpu_ms_per_op,
    pg_cpu_ms_op: usage.postgres_cpu_ms_per_op,
    other_cores: usage.other_cpu_cores,
  } satisfies ResultRow;
}

/** Sequential semantic queries (one in flight: latency, not throughput). */
async function measureQueries(client: Client, name: string, queries: number): Promise<ResultRow> {
  const latencies: number[] = [];
  for (let index = 0; index < queries; index++) {
    const query = `${WORDS[index % WORDS.length]} ${WORDS[(index * 7 + 3) % WORDS.length]}`;
    const t0 = performance.now();
    const { items } = await client.store.searchItems(["bench", "semantic"], { query, limit: 10 });
    latencies.push(performance.now() - t0);
    if (items.length !== 10) throw new Error(`${name}: expected 10 results, got ${items.length}`);
  }
  return { scenario: name, busy_before_pct: null, n: queries, conc: 1, per_s: null, ...percentiles(latencies) };
}

/**
 * `count` items under bench/semantic/<n % 100> with one random unit-length vector each, in
 * chunks (the embedded engine builds each statement's rows in memory).
 */
async function bulkLoadVectors(query: (text: string, values: unknown[]) => Promise<unknown>, count: number): Promise<void> {
  const chunk = 10_000;
  for (let first = 1; first <= count; first += chunk) {
    const last = Math.min(count, first + chunk - 1);
    await query(
      `INSERT INTO store_items (namespace, key, value)
       SELECT ARRAY['bench', 'semantic', (n % 100)::text], 'item-' || n, jsonb_build_object('text', 'item ' || n)
       FROM generate_series($1::int, $2::int) n`,
      [first, last],
    );
    // `WHERE n > 0` ties the inner query to the row, so every item gets its own random vector.
    await query(
      `INSERT INTO store_vectors (namespace, key, field_path, embedding)
       SELECT ARRAY['bench', 'semantic', (n % 100)::text], 'item-' || n, '$',
              ARRAY(SELECT (random() - 0.5)::real FROM generate_series(1, $3::int) WHERE n > 0)
       FROM generate_series($1::int, $2::int) n`,
      [first, last, DIMS],
    );
  }
}

/** putItem, getItem and a filtered search beside threads.create, on a server of `build` over a new database. */
async function measureStoreOps(stamp: string, build: BuildUnderTest, turn: number): Promise<ResultRow[]> {
  const database = await createBenchDatabase("store");
  const logPath = path.join(RESULTS_DIR, `store-${stamp}-${build.build}-${turn}-server.log`);
  try {
    const server = await startServerProcess({ repoRoot: build.repoRoot, configPath: CONFIG, databaseUrl: database.url, logPath });
    try {
      const client = server.client(CONCURRENCY);
      const rows = [
        await measureOps(server, database.name, "threads.create (yardstick)", () => client.threads.create({ metadata: { bench: true } })),
        await measureOps(server, database.name, "store.putItem", (i) =>
          client.store.putItem(["bench", "ops", String(i % 50)], `k-${i}`, { text: `${WORDS[i % WORDS.length]} note ${i}`, i, even: i % 2 === 0 }),
        ),
        await measureOps(server, database.name, "store.getItem", (i) => client.store.getItem(["bench", "ops", String(i % 50)], `k-${i}`)),
        await measureOps(server, database.name, "store.searchItems (filter)", (i) =>
          client.store.searchItems(["bench", "ops", String(i % 50)], { filter: { even: true, i: { $gte: i % 1000 } }, limit: 10 }),
        ),
      ];
      return rows.map((row) => ({ ...row, build: build.build }));
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

/**
 * The operations on every build under test (BENCH_BASELINE: both, in alternating order over
 * BENCH_STORE_TURNS turns, 2, then this build over the baseline).
 */
async function postgresOpsPhase(stamp: string, rows: ResultRow[]): Promise<void> {
  const builds = buildsUnderTest();
  const measured: ResultRow[] = [];
  const turns = builds.length > 1 ? TURNS : 1;
  for (let turn = 0; turn < turns; turn++) for (const build of inTurn(builds, turn)) measured.push(...(await measureStoreOps(stamp, build, turn)));
  rows.push(...measured);
  if (builds.length > 1) rows.push(...ratioRows(measured, ["per_s", "p50_ms", "p99_ms", "server_cpu_ms_op", "pg_cpu_ms_op"]));
}

async function postgresSemanticPhase(stamp: string, rows: ResultRow[]): Promise<void> {
  const database = await createBenchDatabase("store");
  const logPath = path.join(RESULTS_DIR, `store-${stamp}-semantic-server.log`);
  try {
    const server = await startServerProcess({ configPath: CONFIG, databaseUrl: database.url, logPath });
    try {
      const pool = new pg.Pool({ connectionString: database.url, max: 1 });
      try {
        const { rows: extension } = await pool.query("SELECT 1 FROM pg_extension WHERE extname = 'vector'");
        await bulkLoadVectors((text, values) => pool.query(text, values), SEMANTIC_ITEMS);
        if (extension.length > 0) await pool.query("UPDATE store_vectors SET embedding_vector = embedding::vector WHERE embedding_vector IS NULL");
        const name = `semantic search, ${SEMANTIC_ITEMS} items, PostgreSQL ${extension.length > 0 ? "pgvector HNSW" : "exact scan"}`;
        rows.push({ ...(await measureQueries(server.client(1), name, extension.length > 0 ? HNSW_QUERIES : EXACT_QUERIES)), build: "this" });
      } finally {
        await pool.end();
      }
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

async function embeddedPhase(stamp: string, rows: ResultRow[]): Promise<{ hnsw_start_s: number; reused: boolean }> {
  // BENCH_STORE_EMBEDDED_DIR keeps the loaded (and, after the first start, indexed) data
  // directory for the next run, which then measures the queries without the minutes of loading
  // and HNSW building.
  const keptDir = process.env.BENCH_STORE_EMBEDDED_DIR;
  const reuse = keptDir !== undefined && fs.existsSync(path.join(keptDir, "pgdata"));
  const dataDir = keptDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "hangar-bench-store-"));
  try {
    if (!reuse) {
      fs.mkdirSync(dataDir, { recursive: true });
      const log = createLogger("warn");
      const db: Database = await openDatabase({ databaseUrl: null, dataDir }, log);
      try {
        await migrateDatabase(db, log);
        await bulkLoadVectors((text, values) => db.pool.query(text, values), SEMANTIC_ITEMS);
      } finally {
        await db.close();
      }
    }
    const started = performance.now();
    const server = await startServerProcess({
      configPath: CONFIG,
      databaseUrl: null,
      logPath: path.join(RESULTS_DIR, `store-${stamp}-embedded-server.log`),
      env: { HANGAR_DATA_DIR: dataDir },
      // The HNSW index over every vector is built during start-up.
      startTimeoutMs: 1_800_000,
    });
    // With a reused directory the index exists: this is a plain restart.
    const hnswStartS = Math.round((performance.now() - started) / 100) / 10;
    try {
      rows.push({ ...(await measureQueries(server.client(1), `semantic search, ${SEMANTIC_ITEMS} items, embedded HNSW, default buffers`, HNSW_QUERIES)), build: "this" });
    } finally {
      await server.stop();
    }
    // The same queries with a buffer pool that holds the index (HANGAR_EMBEDDED_SHARED_BUFFERS).
    const large = await startServerProcess({
      configPath: CONFIG,
      databaseUrl: null,
      logPath: path.join(RESULTS_DIR, `store-${stamp}-embedded-large-buffers-server.log`),
      env: { HANGAR_DATA_DIR: dataDir, HANGAR_EMBEDDED_SHARED_BUFFERS: LARGE_SHARED_BUFFERS },
    });
    try {
      const name = `semantic search, ${SEMANTIC_ITEMS} items, embedded HNSW, shared_buffers ${LARGE_SHARED_BUFFERS}`;
      rows.push({ ...(await measureQueries(large.client(1), name, HNSW_QUERIES)), build: "this" });
    } finally {
      await large.stop();
    }
    return { hnsw_start_s: hnswStartS, reused: reuse };
  } finally {
    if (keptDir === undefined) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function storeSuite(stamp: string): Promise<void> {
  const rows: ResultRow[] = [];
  const failures: string[] = [];
  const attempt = async <T>(phase: string, run: () => Promise<T>): Promise<T | null> => {
    if (!PHASES.has(phase)) return null;
    try {
      return await run();
    } catch (error) {
      failures.push(`${phase}: ${(error as Error).message.split("\n")[0]}`);
      return null;
    }
  };
  await attempt("postgres", () => postgresOpsPhase(stamp, rows));
  await attempt("postgres", () => postgresSemanticPhase(stamp, rows));
  const embedded = await attempt("embedded", () => embeddedPhase(stamp, rows));
  printTable("Store (latencies in ms)", rows, ["build", "n", "conc", "per_s", "p50_ms", "p95_ms", "p99_ms", "server_cpu_ms_op", "pg_cpu_ms_op", "other_cores"]);
  if (embedded) {
    const what = embedded.reused ? "index already built (kept directory)" : "HNSW build included";
    console.log(`embedded server start-up with ${SEMANTIC_ITEMS} vectors (${what}): ${embedded.hnsw_start_s} s`);
  }
  for (const failure of failures) console.log(`! phase failed: ${failure}`);
  const file = writeResults("store", stamp, {
    suite: "store",
    settings: {
      concurrency: CONCURRENCY,
      operations: OPERATIONS,
      semantic_items: SEMANTIC_ITEMS,
      dims: DIMS,
      config: CONFIG,
      node: process.version,
      repo: repoState(),
    },
    embedded_start_with_hnsw_build_s: embedded?.hnsw_start_s ?? null,
    failures,
    scenarios: rows,
  });
  console.log(`\nStore results: ${file}`);
}
