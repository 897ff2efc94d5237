/**
 * GraphQL benchmark: the console's thread list (web/src/graphql/threads.graphql ThreadList, a page
 * of 20 threads with their assistants: the page, its count and one batched assistant read) over
 * HTTP at a fixed concurrency (BENCH_CONCURRENCY, default 8; BENCH_OPERATIONS, default 2000), against
 * an API-only Hangar server (child process, own fresh database) serving the example deployment.
 * Reports the server's CPU per request: the cost of everything around the resolvers (limits,
 * deadline, pool share) shows there, not in latency on a shared machine.
 */
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import {
  CpuMeter,
  REPO_ROOT,
  RESULTS_DIR,
  createBenchDatabase,
  envInt,
  percentiles,
  printTable,
  repoState,
  runLoops,
  startServerProcess,
  waitForQuietMachine,
  writeResults,
  type ResultRow,
} from "./bench-kit.js";

const CONCURRENCY = envInt("BENCH_CONCURRENCY", 8);
const OPERATIONS = envInt("BENCH_OPERATIONS", 2000);
const WARMUP = 300;

/** The console's ThreadList operation, as the console sends it. */
function threadListQuery(): string {
  const document = fs.readFileSync(path.join(REPO_ROOT, "web/src/graphql/threads.graphql"), "utf8");
  const start = document.indexOf("query ThreadList");
  const end = document.indexOf("\nquery ", start + 1);
  return document.slice(start, end === -1 ? undefined : end);
}

export async function graphqlSuite(stamp: string): Promise<void> {
  const database = await createBenchDatabase("graphql");
  const logPath = path.join(RESULTS_DIR, `graphql-${stamp}-server.log`);
  const rows: ResultRow[] = [];
  try {
    const server = await startServerProcess({
      configPath: "examples/langgraph.json",
      databaseUrl: database.url,
      logPath,
      args: ["--no-worker", "--no-cron"],
    });
    try {
      const client = server.client(CONCURRENCY);
      const assistant = await client.assistants.create({ graphId: "agent", name: "bench" });
      for (let i = 0; i < 20; i++) await client.threads.create({ metadata: { assistant_id: assistant.assistant_id, i } });
      const body = JSON.stringify({ query: threadListQuery(), variables: { first: 20 }, operationName: "ThreadList" });
      const request = async () => {
        const response = await fetch(`${server.url}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body });
        const answer = (await response.json()) as { errors?: unknown; data?: { threads: { edges: unknown[] } } };
        if (answer.errors || answer.data?.threads.edges.length !== 20) throw new Error(`unexpected answer: ${JSON.stringify(answer).slice(0, 300)}`);
      };
      await runLoops(WARMUP, CONCURRENCY, request);
      const machine = await waitForQuietMachine();
      const latencies: number[] = [];
      const cpu = await CpuMeter.start(server, database.name);
      const seconds = await runLoops(OPERATIONS, CONCURRENCY, async () => {
        const t0 = performance.now();
        await request();
        latencies.push(performance.now() - t0);
      });
      const { server_cpu_ms_per_op, postgres_cpu_ms_per_op, other_cpu_cores } = await cpu.stop(OPERATIONS);
      rows.push({
        scenario: "ThreadList (20 threads + assistants)",
        busy_before_pct: machine.busy_pct,
        n: OPERATIONS,
        conc: CONCURRENCY,
        per_s: Math.round(OPERATIONS / seconds),
        ...percentiles(latencies),
        server_cpu_ms_op: server_cpu_ms_per_op,
        pg_cpu_ms_op: postgres_cpu_ms_per_op,
        other_cores: other_cpu_cores,
      });
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
  printTable("GraphQL (latencies in ms)", rows, ["busy_before_pct", "n", "conc", "per_s", "p50_ms", "p95_ms", "server_cpu_ms_op", "pg_cpu_ms_op", "other_cores"]);
  const file = writeResults("graphql", stamp, {
    suite: "graphql",
    settings: { concurrency: CONCURRENCY, operations: OPERATIONS, config: "examples/langgraph.json", node: process.version, repo: repoState() },
    scenarios: rows,
  });
  console.log(`\nGraphQL results: ${file} (server log: ${logPath})`);
}
