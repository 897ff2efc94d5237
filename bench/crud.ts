/**
 * REST CRUD benchmark: assistants and threads through the official SDK client at a fixed
 * concurrency (BENCH_CONCURRENCY, default 16; BENCH_OPERATIONS per scenario, default 2000), against
 * a Hangar server (child process, own fresh database) serving the example deployment.
 * BENCH_BASELINE=<another built checkout>: its server too, in alternated turns, with the ratios;
 * BENCH_CRUD_REPEATS (default 1) runs the scenario list that many times.
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import {
  type Build,
  CpuMeter,
  RESULTS_DIR,
  RssSampler,
  createBenchDatabase,
  buildsUnderTest,
  envInt,
  inTurn,
  percentiles,
  printTable,
  ratioRows,
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
const REPEATS = envInt("BENCH_CRUD_REPEATS", 1);

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

/** One build's server on its own database, and the assistants its create phase made. */
interface CrudTarget {
  build: Build;
  server: ServerProcess;
  database: string;
  client: ReturnType<ServerProcess["client"]>;
  assistantIds: string[];
}

const SCENARIOS: Array<{ name: string; operation: (target: CrudTarget, index: number) => Promise<unknown> }> = [
  {
    name: "assistants.create",
    operation: async ({ client, assistantIds }, i) => {
      const assistant = await client.assistants.create({ graphId: "agent", name: `bench-${i}`, metadata: { i } });
      assistantIds.push(assistant.assistant_id);
    },
  },
  {
    name: "assistants.update (new version)",
    operation: ({ client, assistantIds }, i) => client.assistants.update(assistantIds[i % assistantIds.length]!, { context: { model_name: `m-${i}` } }),
  },
  { name: "assistants.search (metadata)", operation: ({ client }, i) => client.assistants.search({ metadata: { i }, limit: 10 }) },
  { name: "threads.create", operation: ({ client }) => client.threads.create({ metadata: { bench: true } }) },
  { name: "threads.search (metadata)", operation: ({ client }) => client.threads.search({ metadata: { bench: true }, limit: 10 }) },
];

const RATIO_COLUMNS = ["per_s", "p50_ms", "p95_ms", "server_cpu_ms_op", "pg_cpu_ms_op"];

/**
 * Every scenario on every build (BENCH_BASELINE: this checkout and the baseline, each on a server
 * and database of its own, both up throughout), in alternated turns (bench-kit's inTurn), so a
 * load drift on a shared machine spreads over both builds.
 */
export async function crudSuite(stamp: string): Promise<void> {
  const builds = buildsUnderTest();
  const targets: CrudTarget[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  const rows: ResultRow[] = [];
  try {
    for (const { build, repoRoot } of builds) {
      const database = await createBenchDatabase(`crud_${build}`);
      cleanups.push(() => database.drop());
      const logPath = path.join(RESULTS_DIR, `crud-${stamp}-${build}-server.log`);
      const server = await startServerProcess({ configPath: "examples/langgraph.json", databaseUrl: database.url, logPath, repoRoot });
      cleanups.push(() => server.stop());
      targets.push({ build, server, database: database.name, client: server.client(CONCURRENCY), assistantIds: [] });
    }
    let turn = 0;
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      for (const { name, operation } of SCENARIOS) {
        for (const target of inTurn(targets, turn++)) {
          rows.push({ ...(await measure(target, name, (i) => operation(target, i))), build: target.build });
        }
      }
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
  printTable("REST CRUD (latencies in ms)", rows, [
    "build",
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
  const ratios = builds.length > 1 ? ratioRows(rows, RATIO_COLUMNS) : [];
  if (ratios.length > 0) printTable("This build over the baseline (per_s above 1: more; times and CPU below 1: less)", ratios, RATIO_COLUMNS);
  const contended = rows.filter((row) => Number(row.other_cores) > 0.25).map((row) => row.scenario);
  if (contended.length > 0) console.log(`! other processes competed for the CPU during: ${contended.join(", ")}; rerun on a quiet machine`);
  const file = writeResults("crud", stamp, {
    suite: "crud",
    settings: {
      concurrency: CONCURRENCY,
      operations: OPERATIONS,
      config: "examples/langgraph.json",
      baseline: builds.find((build) => build.build === "baseline")?.repoRoot ?? null,
      node: process.version,
      repo: repoState(),
    },
    scenarios: rows.map((row) => ({ ...row, per_s: round(Number(row.per_s), 0) })),
    baseline_ratios: ratios,
  });
  console.log(`\nCRUD results: ${file} (server logs: ${RESULTS_DIR}/crud-${stamp}-*-server.log)`);
}
