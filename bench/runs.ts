/**
 * Run-engine benchmark: a Hangar server (child process, own fresh database, bench/langgraph.json:
 * the one-node `echo` graph of the test fixtures) driven through the official SDK client.
 *
 * - background runs: runs.create on a pre-created thread, then runs.join; runs/s and create→join
 *   latency at BENCH_RUN_CONCURRENCY (16), BENCH_RUN_REPEATS times (3; judged on the median), and
 *   sequentially; and open-loop at BENCH_PACED_RATE runs/s
 *   (at most 16 in flight), the latency at a load below saturation;
 * - join after the run's end: client time join returned − the run's updated_at (stamped when the
 *   worker records the outcome), read with runs.get after the timed batch;
 * - streams: runs.stream(streamMode "values"): time to the first event (metadata) and to the end;
 * - server RSS (VmRSS sampled every 100 ms) and CPU per phase;
 * - SQL round trips and statements per run, through a counting wire-protocol proxy (a second
 *   server on the same database, so the proxy does not slow the timed phases);
 * - BENCH_CPU_PROF=1: a V8 CPU profile of the timed server, summarized by self time.
 */
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { Client } from "@langchain/langgraph-sdk";
import {
  CpuMeter,
  RESULTS_DIR,
  RssSampler,
  SqlCountingProxy,
  createBenchDatabase,
  databaseTarget,
  waitForQuietMachine,
  envInt,
  percentiles,
  printTable,
  repoState,
  round,
  runLoops,
  runPaced,
  busiestCpuProfile,
  startServerProcess,
  summarizeCpuProfile,
  viaPort,
  wallMs,
  writeResults,
  type ResultRow,
  type ServerProcess,
} from "./bench-kit.js";
import { printRunTargets } from "./run-targets.js";

const CONFIG = "bench/langgraph.json";
const GRAPH = "echo";
const RUNS = envInt("BENCH_RUNS", 2000);
const RUN_CONCURRENCY = envInt("BENCH_RUN_CONCURRENCY", 16);
// The c=16 phase is repeated and judged on its median: this VM drifts ±15% from minute to minute.
const RUN_REPEATS = Math.max(1, envInt("BENCH_RUN_REPEATS", 3));
const SEQUENTIAL_RUNS = envInt("BENCH_SEQUENTIAL_RUNS", 300);
const STREAMS = envInt("BENCH_STREAMS", 300);
const SQL_RUNS = envInt("BENCH_SQL_RUNS", 50);
// Long enough for V8 to optimize the hot paths: after 50 runs the first timed phase still ran ~10-20% slow.
const WARMUP = envInt("BENCH_WARMUP_RUNS", 500);
// The open-loop phase: create→join latency at this offered load (runs/s), below saturation.
const PACED_RATE = envInt("BENCH_PACED_RATE", 200);
const PACED_RUNS = envInt("BENCH_PACED_RUNS", 2000);
const CPU_PROFILE = process.env.BENCH_CPU_PROF === "1";
// Split deployment: the client's server runs `serve --no-worker`, and a second process executes
// the runs (its CPU shows as "other"). One process per core instead of one for both.
const WORKER_PROCESS = process.env.BENCH_WORKER_PROCESS === "1";

const input = (i: number) => ({ messages: [{ role: "user", content: `bench ${i}` }] });

/** The server under test, a client on it, and its database (for PostgreSQL CPU accounting). */
interface Target {
  server: ServerProcess;
  client: Client;
  database: string;
}

interface Failures {
  count: number;
  first: string | null;
}

function failureRecorder(): Failures & { record(error: unknown): void } {
  return {
    count: 0,
    first: null,
    record(error: unknown) {
      this.count += 1;
      this.first ??= error instanceof Error ? error.message : String(error);
    },
  };
}

async function createThreads(client: Client, count: number): Promise<string[]> {
  const ids: string[] = new Array(count);
  await runLoops(count, 16, async (i) => {
    ids[i] = (await client.threads.create({ metadata: { bench: "runs" } })).thread_id;
  });
  return ids;
}

/**
 * `count` create→join runs on `concurrency` loops, each on its own fresh thread; with `pacedRate`,
 * started at that rate (runPaced) instead of as fast as the loops go.
 */
async function backgroundRuns({ server, client, database }: Target, count: number, concurrency: number, pacedRate?: number) {
  const threads = await createThreads(client, count);
  const machine = await waitForQuietMachine();
  const createMs: number[] = [];
  const totalMs: number[] = [];
  const joined: Array<{ threadId: string; runId: string; joinReturnedAt: number }> = [];
  const failures = failureRecorder();
  const rss = new RssSampler(server);
  const cpu = await CpuMeter.start(server, database);
  rss.start();
  const loops = pacedRate ? (operation: (i: number) => Promise<void>) => runPaced(count, pacedRate, concurrency, operation) : (operation: (i: number) => Promise<void>) => runLoops(count, concurrency, operation);
  const seconds = await loops(async (i) => {
    const threadId = threads[i]!;
    try {
      const t0 = performance.now();
      const run = await client.runs.create(threadId, GRAPH, { input: input(i) });
      const t1 = performance.now();
      await client.runs.join(threadId, run.run_id);
      const joinReturnedAt = wallMs();
      const t2 = performance.now();
      createMs.push(t1 - t0);
      totalMs.push(t2 - t0);
      joined.push({ threadId, runId: run.run_id, joinReturnedAt });
    } catch (error) {
      failures.record(error);
    }
  });
  const resources = { ...rss.stop(), ...(await cpu.stop(count)) };

  // Outside the timed batch: the run's end as the server recorded it.
  const gaps: number[] = [];
  const notSuccess: Record<string, number> = {};
  await runLoops(joined.length, 16, async (i) => {
    const { threadId, runId, joinReturnedAt } = joined[i]!;
    const run = await client.runs.get(threadId, runId);
    if (run.status !== "success") notSuccess[run.status] = (notSuccess[run.status] ?? 0) + 1;
    gaps.push(joinReturnedAt - Date.parse(run.updated_at));
  });

  return {
    runs: count,
    concurrency,
    paced_rate: pacedRate ?? null,
    completed: totalMs.length,
    failed: failures.count,
    first_error: failures.first,
    not_success: notSuccess,
    seconds: round(seconds, 2),
    runs_per_second: round(totalMs.length / seconds, 1),
    create_to_join: percentiles(totalMs),
    create: percentiles(createMs),
    join_after_run_end: percentiles(gaps),
    resources,
    machine_before: machine,
  };
}

/** `count` runs.stream calls on `concurrency` loops: first event (metadata) and stream end. */
async function streamedRuns({ server, client, database }: Target, count: number, concurrency: number) {
  const threads = await createThreads(client, count);
  const machine = await waitForQuietMachine();
  const firstMs: number[] = [];
  const lastMs: number[] = [];
  let notMetadataFirst = 0;
  let withoutValues = 0;
  const failures = failureRecorder();
  const rss = new RssSampler(server);
  const cpu = await CpuMeter.start(server, database);
  rss.start();
  const seconds = await runLoops(count, concurrency, async (i) => {
    try {
      const t0 = performance.now();
      let first: number | null = null;
      let sawValues = false;
      for await (const chunk of client.runs.stream(threads[i]!, GRAPH, { input: input(i), streamMode: "values" })) {
        if (first === null) {
          first = performance.now() - t0;
          if (chunk.event !== "metadata") notMetadataFirst += 1;
        }
        if (chunk.event === "values") sawValues = true;
      }
      lastMs.push(performance.now() - t0);
      if (first !== null) firstMs.push(first);
      if (!sawValues) withoutValues += 1;
    } catch (error) {
      failures.record(error);
    }
  });
  return {
    runs: count,
    concurrency,
    completed: lastMs.length,
    failed: failures.count,
    first_error: failures.first,
    first_event_not_metadata: notMetadataFirst,
    streams_without_values: withoutValues,
    seconds: round(seconds, 2),
    runs_per_second: round(lastMs.length / seconds, 1),
    first_event: percentiles(firstMs),
    stream_end: percentiles(lastMs),
    resources: { ...rss.stop(), ...(await cpu.stop(count)) },
    machine_before: machine,
  };
}

/** Round trips and statements per run, counted by a proxy in front of a second server. */
async function sqlAccounting(databaseUrl: string, logPath: string, count: number) {
  const proxy = new SqlCountingProxy(databaseTarget(databaseUrl));
  const port = await proxy.listen();
  const server = await startServerProcess({ configPath: CONFIG, databaseUrl: viaPort(databaseUrl, port), logPath });
  const client = server.client(1);
  try {
    const threads = await createThreads(client, count * 2 + 10);
    for (let i = 0; i < 10; i++) {
      const run = await client.runs.create(threads[count * 2 + i]!, GRAPH, { input: input(i) });
      await client.runs.join(threads[count * 2 + i]!, run.run_id);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));

    const snapshot = (label: string, operations: number) => ({
      scenario: label,
      operations,
      round_trips: proxy.roundTrips,
      round_trips_per_op: round(proxy.roundTrips / operations, 2),
      statements: [...proxy.statements.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([sql, calls]) => ({ per_op: round(calls / operations, 2), calls, sql })),
    });

    proxy.reset();
    const idleStarted = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const idleSeconds = (performance.now() - idleStarted) / 1000;
    const idle = { ...snapshot("idle (per second)", idleSeconds) };

    proxy.reset();
    for (let i = 0; i < count; i++) {
      const run = await client.runs.create(threads[i]!, GRAPH, { input: input(i) });
      await client.runs.join(threads[i]!, run.run_id);
    }
    await new Promise((resolve) => setTimeout(resolve, 100)); // let the event flush land
    const createJoin = snapshot("create+join (per run)", count);

    proxy.reset();
    for (let i = 0; i < count; i++) {
      for await (const _ of client.runs.stream(threads[count + i]!, GRAPH, { input: input(i), streamMode: "values" })) {
        // drain
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stream = snapshot("stream (per run)", count);
    proxy.pause();
    return { idle, create_join: createJoin, stream };
  } finally {
    await server.stop();
    await proxy.close();
  }
}

function latencyRow(scenario: string, n: number, concurrency: number, perSecond: number | null, p: Record<string, number>): ResultRow {
  return { scenario, n, conc: concurrency, per_s: perSecond, p50_ms: p.p50_ms!, p95_ms: p.p95_ms!, p99_ms: p.p99_ms! };
}

type PhaseResources = ReturnType<RssSampler["stop"]> & Awaited<ReturnType<CpuMeter["stop"]>>;

function resourceRow(scenario: string, r: PhaseResources, machine: { busy_pct: number }): ResultRow {
  return {
    scenario,
    busy_before_pct: machine.busy_pct,
    rss_max_mb: r.rss_max_mb,
    rss_end_mb: r.rss_end_mb,
    "cpu_ms/op srv": r.server_cpu_ms_per_op,
    pg: r.postgres_cpu_ms_per_op,
    client: r.client_cpu_ms_per_op,
    "cores srv": r.server_cpu_cores,
    "pg ": r.postgres_cpu_cores,
    "client ": r.client_cpu_cores,
    other: r.other_cpu_cores,
    load_1m: r.load_avg_1m,
  };
}

export async function runEngineSuite(stamp: string): Promise<void> {
  const database = await createBenchDatabase("runs");
  const logPath = path.join(RESULTS_DIR, `runs-${stamp}-server.log`);
  const profileDir = CPU_PROFILE ? path.join(RESULTS_DIR, `runs-${stamp}-cpuprof`) : undefined;
  const results: Record<string, unknown> = {
    suite: "runs",
    started_at: new Date().toISOString(),
    settings: {
      graph: GRAPH,
      config: CONFIG,
      runs: RUNS,
      run_concurrency: RUN_CONCURRENCY,
      sequential_runs: SEQUENTIAL_RUNS,
      streams: STREAMS,
      sql_runs: SQL_RUNS,
      warmup_runs: WARMUP,
      paced_rate: PACED_RATE,
      paced_runs: PACED_RUNS,
      HANGAR_WORKER_CONCURRENCY: process.env.HANGAR_WORKER_CONCURRENCY ?? "(default 16)",
      HANGAR_DB_POOL_SIZE: process.env.HANGAR_DB_POOL_SIZE ?? "(default 24)",
      HANGAR_TRACE_GRAPH_RUNS: process.env.HANGAR_TRACE_GRAPH_RUNS ?? "(default true)",
      worker_process: WORKER_PROCESS,
      BENCH_DB_SETTINGS: process.env.BENCH_DB_SETTINGS ?? null,
      node: process.version,
      repo: repoState(),
    },
  };
  try {
    const worker = WORKER_PROCESS
      ? await startServerProcess({ configPath: CONFIG, databaseUrl: database.url, logPath: logPath.replace(/\.log$/, "-worker.log") })
      : null;
    const server = await startServerProcess({
      configPath: CONFIG,
      databaseUrl: database.url,
      logPath,
      cpuProfDir: profileDir,
      args: WORKER_PROCESS ? ["--no-worker"] : [],
    });
    let stopped = false;
    try {
      const target: Target = { server, client: server.client(RUN_CONCURRENCY), database: database.name };
      results.server_rss_after_start_mb = server.rssMb();
      if (WARMUP > 0) await backgroundRuns(target, WARMUP, RUN_CONCURRENCY);
      results.server_rss_after_warmup_mb = server.rssMb();

      const repeats: Array<Awaited<ReturnType<typeof backgroundRuns>>> = [];
      for (let i = 0; i < RUN_REPEATS; i++) repeats.push(await backgroundRuns(target, RUNS, RUN_CONCURRENCY));
      const repeatRates = repeats.map((repeat) => repeat.runs_per_second);
      // The tables show the repeat whose rate is the median (the lower middle one for an even count).
      const byRate = [...repeats].sort((a, b) => a.runs_per_second - b.runs_per_second);
      const concurrent = byRate[Math.floor((byRate.length - 1) / 2)]!;
      const paced = await backgroundRuns(target, PACED_RUNS, RUN_CONCURRENCY, PACED_RATE);
      const sequential = await backgroundRuns(target, SEQUENTIAL_RUNS, 1);
      const streamSequential = await streamedRuns(target, STREAMS, 1);
      const streamConcurrent = await streamedRuns(target, STREAMS, RUN_CONCURRENCY);
      Object.assign(results, {
        background_concurrent: concurrent,
        background_concurrent_repeat_rates: repeatRates,
        background_paced: paced,
        background_sequential: sequential,
        stream_sequential: streamSequential,
        stream_concurrent: streamConcurrent,
        server_rss_end_mb: server.rssMb(),
        server_rss_peak_mb: server.peakRssMb(),
      });

      printTable(
        `Run engine (graph '${GRAPH}', server pid ${server.pid}; latencies in ms)`,
        [
          latencyRow("create→join", concurrent.completed, RUN_CONCURRENCY, concurrent.runs_per_second, concurrent.create_to_join),
          latencyRow("  create (POST /runs)", concurrent.completed, RUN_CONCURRENCY, null, concurrent.create),
          latencyRow("  join return − run end", concurrent.completed, RUN_CONCURRENCY, null, concurrent.join_after_run_end),
          latencyRow(`create→join, paced at ${PACED_RATE}/s`, paced.completed, RUN_CONCURRENCY, paced.runs_per_second, paced.create_to_join),
          latencyRow("  join return − run end", paced.completed, RUN_CONCURRENCY, null, paced.join_after_run_end),
          latencyRow("create→join", sequential.completed, 1, sequential.runs_per_second, sequential.create_to_join),
          latencyRow("  create (POST /runs)", sequential.completed, 1, null, sequential.create),
          latencyRow("  join return − run end", sequential.completed, 1, null, sequential.join_after_run_end),
          latencyRow("stream: first event", streamSequential.completed, 1, streamSequential.runs_per_second, streamSequential.first_event),
          latencyRow("stream: end", streamSequential.completed, 1, null, streamSequential.stream_end),
          latencyRow("stream: first event", streamConcurrent.completed, RUN_CONCURRENCY, streamConcurrent.runs_per_second, streamConcurrent.first_event),
          latencyRow("stream: end", streamConcurrent.completed, RUN_CONCURRENCY, null, streamConcurrent.stream_end),
        ],
        ["n", "conc", "per_s", "p50_ms", "p95_ms", "p99_ms"],
      );
      printTable(
        `Resources per phase: server RSS (after start ${results.server_rss_after_start_mb} MB, after warm-up ${results.server_rss_after_warmup_mb} MB, peak ${results.server_rss_peak_mb} MB); CPU ms per run and cores used by the server, its PostgreSQL backends, this client and other processes`,
        [
          resourceRow(`background c=${RUN_CONCURRENCY}`, concurrent.resources, concurrent.machine_before),
          resourceRow(`paced ${PACED_RATE}/s`, paced.resources, paced.machine_before),
          resourceRow("background c=1", sequential.resources, sequential.machine_before),
          resourceRow("stream c=1", streamSequential.resources, streamSequential.machine_before),
          resourceRow(`stream c=${RUN_CONCURRENCY}`, streamConcurrent.resources, streamConcurrent.machine_before),
        ],
        ["busy_before_pct", "rss_max_mb", "rss_end_mb", "cpu_ms/op srv", "pg", "client", "cores srv", "pg ", "client ", "other", "load_1m"],
      );
      results.targets = printRunTargets(
        repeatRates,
        [concurrent, paced, sequential].filter((phase) => phase.completed > 0),
      );
      for (const phase of [concurrent, paced, sequential, streamSequential, streamConcurrent]) {
        if (phase.resources.other_cpu_cores > 0.25) {
          console.log(
            `! ${"first_event" in phase ? "stream" : "background"} c=${phase.concurrency}: other processes used ` +
              `${phase.resources.other_cpu_cores} cores meanwhile (of ${os.cpus().length}); its numbers are contended, rerun on a quiet machine`,
          );
        }
      }
      const problems = [concurrent, paced, sequential, streamSequential, streamConcurrent].filter(
        (phase) => phase.failed > 0 || ("not_success" in phase && Object.keys(phase.not_success).length > 0),
      );
      for (const phase of problems) console.log(`! c=${phase.concurrency}: ${phase.failed} failed (${phase.first_error ?? "-"})`, "not_success" in phase ? phase.not_success : "");

      await server.stop();
      await worker?.stop();
      stopped = true;
      if (profileDir) {
        const profile = busiestCpuProfile(profileDir);
        if (profile) {
          const summary = summarizeCpuProfile(profile);
          results.cpu_profile = { file: profile, ...summary };
          const rows = (list: typeof summary.by_package) => list.map((row) => ({ scenario: row.name, ms: row.self_ms, pct: row.pct }));
          const note = `${summary.busy_ms} ms busy over the server's life, start-up included; % of busy time`;
          printTable(`Server CPU profile (${note}): self time by package`, rows(summary.by_package), ["ms", "pct"]);
          printTable("Server CPU profile: self time by function", rows(summary.by_function), ["ms", "pct"]);
          printTable("Server CPU profile: native self time by JavaScript caller", rows(summary.native_by_caller), ["ms", "pct"]);
          printTable("Server CPU profile: inclusive time of the repository's functions", rows(summary.repo_inclusive), ["ms", "pct"]);
        }
      }
    } finally {
      if (!stopped) await Promise.all([server.stop(), worker?.stop()]);
    }

    if (SQL_RUNS > 0) {
      const sql = await sqlAccounting(database.url, logPath, SQL_RUNS);
      results.sql = sql;
      for (const scope of [sql.create_join, sql.stream, sql.idle]) {
        printTable(
          `SQL, ${scope.scenario}: ${scope.round_trips_per_op} round trips (${scope.round_trips} over ${round(scope.operations, 1)}), sequential, counted by a wire proxy`,
          scope.statements.slice(0, 30).map((row) => ({ scenario: row.sql.slice(0, 120), per_op: row.per_op })),
          ["per_op"],
        );
      }
    }
  } finally {
    await database.drop();
  }
  results.finished_at = new Date().toISOString();
  console.log(`\nrun-engine results: ${writeResults("runs", stamp, results)} (server log: ${logPath})`);
}
