/**
 * REST CRUD benchmark: assistants and threads through the official SDK client at a fixed
 * concurrency (BENCH_CONCURRENCY, default 16; BENCH_OPERATIONS per scenario, default 2000), against
 * a Hangar server (child process, own fresh database) serving the example deployment.
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import {
  CpuMeter,
  RESULTS_DIR,
  RssSampler,
  createBenchDatabase,
  envInt,
  percentiles,
  printTable,
  repoState,
  round,
  runLoops,
  startServerProcess,
  waitForQuietMachine,
  writeResults,
  type ResultRow,
  type ServerProcess,
} from "./bench-kit.js";

const CONCURRENCY = envInt("BENCH_CONCURRENCY", 16);
const OPERATIONS = envInt("BENCH_OPERATIONS", 2000);

async function measure({ server, database }: { server: ServerProcess; database: string }, name: string, operation: (index: number) => Promise<unknown>) {
  const machine = await waitForQuietMachine();
  const latencies: number[] = [];
  const rss = new RssSampler(server);
  const cpu = await CpuMeter.start(server, database);
  rss.start();
  const seconds = await runLoops(OPERATIONS, CONCURRENCY, async (index) => {
    const t0 = performance.now();
    await operation(index);
    latencies.push(performance.now() - t0);
  });
  const { rss_max_mb, rss_end_mb } = rss.stop();
  const { server_cpu_ms_per_op, postgres_cpu_ms_per_op, other_cpu_cores } = await cpu.stop(OPERATIONS);
  return {
    scenario: name,
    busy_before_pct: machine.busy_pct,
    n: OPERATIONS,
    conc: CONCURRENCY,
    per_s: Math.round(OPERATIONS / seconds),
    ...percentiles(latencies),
    rss_max_mb,
    rss_end_mb,
    server_cpu_ms_op: server_cpu_ms_per_op,
    pg_cpu_ms_op: postgres_cpu_ms_per_op,
    other_cores: other_cpu_cores,
  } satisfies ResultRow;
}

export async function crudSuite(stamp: string): Promise<void> {
  const database = await createBenchDatabase("crud");
  const logPath = path.join(RESULTS_DIR, `crud-${stamp}-server.log`);
  const rows: ResultRow[] = [];
  try {
    const server = await startServerProcess({ configPath: "examples/langgraph.json", databaseUrl: database.url, logPath });
    try {
      const client = server.client(CONCURRENCY);
      const target = { server, database: database.name };
      const assistantIds: string[] = [];
      rows.push(
        await measure(target, "assistants.create", async (i) => {
          const assistant = await client.assistants.create({ graphId: "agent", name: `bench-${i}`, metadata: { i } });
          assistantIds.push(assistant.assistant_id);
        }),
      );
      rows.push(
        await measure(target, "assistants.update (new version)", (i) =>
          client.assistants.update(assistantIds[i % assistantIds.length]!, { context: { model_name: `m-${i}` } }),
        ),
      );
      rows.push(await measure(target, "assistants.search (metadata)", (i) => client.assistants.search({ metadata: { i }, limit: 10 })));
      rows.push(await measure(target, "threads.create", () => client.threads.create({ metadata: { bench: true } })));
      rows.push(
        await measure(target, "threads.search (metadata)", () => client.threads.search({ metadata: { bench: true }, limit: 10 })),
      );
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
  printTable("REST CRUD (latencies in ms)", rows, [
    "busy_before_pct",
    "n",
    "conc",
    "per_s",
    "p50_ms",
    "p95_ms",
    "p99_ms",
    "rss_max_mb",
    "server_cpu_ms_op",
    "pg_cpu_ms_op",
    "other_cores",
  ]);
  const contended = rows.filter((row) => Number(row.other_cores) > 0.25).map((row) => row.scenario);
  if (contended.length > 0) console.log(`! other processes competed for the CPU during: ${contended.join(", ")}; rerun on a quiet machine`);
  const file = writeResults("crud", stamp, {
    suite: "crud",
    settings: { concurrency: CONCURRENCY, operations: OPERATIONS, config: "examples/langgraph.json", node: process.version, repo: repoState() },
    scenarios: rows.map((row) => ({ ...row, per_s: round(Number(row.per_s), 0) })),
  });
  console.log(`\nCRUD results: ${file} (server log: ${logPath})`);
}
