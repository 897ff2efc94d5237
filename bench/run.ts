/**
 * `npm run bench`: starts a real Hangar on PostgreSQL (DATABASE_URL's server, a fresh database)
 * and measures the REST API through the official SDK client at a fixed concurrency. Prints one
 * JSON line per scenario: operations/s and latency percentiles (ms), plus the server's RSS.
 */
import { performance } from "node:perf_hooks";
import { Client } from "@langchain/langgraph-sdk";
import pg from "pg";
import { loadConfig } from "../src/config.js";
import { createLogger } from "../src/logger.js";
import { startHangar } from "../src/main.js";

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const OPERATIONS = Number(process.env.BENCH_OPERATIONS ?? 2000);
const baseUrl = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");

async function withAdmin(sql: string) {
  const admin = new pg.Client({ connectionString: baseUrl.toString() });
  await admin.connect();
  await admin.query(sql);
  await admin.end();
}

function percentile(sorted: number[], p: number): number {
  return Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(2));
}

async function measure(name: string, operation: (index: number) => Promise<unknown>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < OPERATIONS) {
        const index = next++;
        const t0 = performance.now();
        await operation(index);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const result = {
    scenario: name,
    concurrency: CONCURRENCY,
    operations: OPERATIONS,
    per_second: Math.round(OPERATIONS / seconds),
    p50_ms: percentile(latencies, 50),
    p95_ms: percentile(latencies, 95),
    p99_ms: percentile(latencies, 99),
    rss_mb: Math.round(process.memoryUsage().rss / 1024 / 1024),
  };
  console.log(JSON.stringify(result));
}

async function main() {
  const database = `hangar_bench_${Date.now()}`;
  await withAdmin(`CREATE DATABASE ${database}`);
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  const config = loadConfig(
    { DATABASE_URL: url.toString(), PORT: "0", LOG_LEVEL: "error" },
    { configPath: "examples/langgraph.json" },
  );
  const hangar = await startHangar(config, createLogger("error"));
  const client = new Client({ apiUrl: hangar.url, callerOptions: { maxRetries: 0, maxConcurrency: CONCURRENCY } });
  try {
    const assistantIds: string[] = [];
    await measure("assistants.create", async (i) => {
      const assistant = await client.assistants.create({ graphId: "agent", name: `bench-${i}`, metadata: { i } });
      assistantIds.push(assistant.assistant_id);
    });
    await measure("assistants.update (new version)", (i) =>
      client.assistants.update(assistantIds[i % assistantIds.length], { context: { model_name: `m-${i}` } }),
    );
    await measure("assistants.search (metadata)", (i) => client.assistants.search({ metadata: { i }, limit: 10 }));
    await measure("threads.create", () => client.threads.create({ metadata: { bench: true } }));
    await measure("threads.search (metadata)", () => client.threads.search({ metadata: { bench: true }, limit: 10 }));
  } finally {
    await hangar.close();
    await withAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
