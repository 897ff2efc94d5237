/**
 * Many-streams benchmark (issue 31, target 4: "1,000 streams opened at once on one
 * thread-per-stream graph (50 ms per node): all complete, first event p50 under 1 s, RSS peak
 * <= 400 MB").
 *
 * BENCH_STREAMS_CLIENTS (1000) official SDK calls of runs.stream (stream mode `values`), each on
 * a thread of its own created beforehand, are started in the same turn of the event loop. The
 * graph is bench/graphs/sleepy.ts: three nodes in a row, each waiting BENCH_STREAMS_NODE_MS (50)
 * ms, so a run holds a worker slot for ~150 ms while using little CPU. A stream is complete when
 * it ended without an `error` event after a `values` event showing all three steps.
 *
 * Measured from the moment the burst starts: first event (the `metadata` event, sent once the
 * run is queued) p50/p99, stream end p50/p99; the server's RSS (VmRSS every 100 ms: peak and
 * before), server, PostgreSQL and client CPU, and the connections the kernel dropped because the
 * server's listen backlog was full (TcpExt ListenOverflows, machine-wide). Runs wait in the queue for a worker slot
 * (HANGAR_WORKER_CONCURRENCY, passed through to the server), so the end times spread over
 * about clients × 3 × node_ms / concurrency; the first event does not wait for a worker.
 *
 * The servers run built (dist/, as `npm start` does: run `npm run build` first), since RSS is a target
 * and running from source adds tsx's compiler to it.
 *
 * Client side: the SDK's request queue is sized to let every stream be in flight
 * (maxConcurrency = clients), and its requests go through one undici Agent allowing a socket per
 * stream (connections = clients + 16, idle sockets kept 4 s) so no stream waits for another's socket.
 *
 * BENCH_STREAMS_WARMUP (300) streams at once warm each server up (not timed);
 * BENCH_STREAMS_REPEATS (2) bursts per server; BENCH_STREAMS_TIMEOUT_S (300) ends a stream that
 * runs longer (it then counts as incomplete). BENCH_BASELINE=<another checkout> (built
 * and installed, e.g. a worktree of main; bench-kit's buildsUnderTest) runs the same bursts on its server too, on its own
 * database, the two taking turns (the `build` column). BENCH_CPU_PROF=1: a V8 CPU profile of this
 * checkout's server, summarized by self time.
 */
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "@langchain/langgraph-sdk";
import { Agent, fetch as undiciFetch } from "undici";
import {
  buildsUnderTest,
  CpuMeter,
  busiestCpuProfile,
  summarizeCpuProfile,
  REPO_ROOT,
  RESULTS_DIR,
  RssSampler,
  createBenchDatabase,
  envInt,
  percentiles,
  printTable,
  repoState,
  round,
  startServerProcess,
  waitForQuietMachine,
  writeResults,
  type BenchDatabase,
  type ResultRow,
  type ServerProcess,
} from "./bench-kit.js";

// Absolute, so a baseline checkout's server runs this checkout's graph.
const CONFIG = path.join(REPO_ROOT, "bench/streams.langgraph.json");
const GRAPH = "sleepy";
const STEPS = 3;
const CLIENTS = envInt("BENCH_STREAMS_CLIENTS", 1000);
const NODE_MS = envInt("BENCH_STREAMS_NODE_MS", 50);
const REPEATS = Math.max(1, envInt("BENCH_STREAMS_REPEATS", 2));
const TIMEOUT_S = envInt("BENCH_STREAMS_TIMEOUT_S", 300);
const WARMUP = envInt("BENCH_STREAMS_WARMUP", 300);
const BASELINE = buildsUnderTest().find((build) => build.build === "baseline")?.repoRoot;
const CPU_PROFILE = process.env.BENCH_CPU_PROF === "1";

/**
 * The machine's TcpExt ListenOverflows count: connections dropped because a listening socket's
 * backlog was full (the whole machine's, so other processes' count too).
 */
function listenOverflows(): number {
  const lines = fs.readFileSync("/proc/net/netstat", "utf8").split("\n").filter((line) => line.startsWith("TcpExt:"));
  const names = lines[0]?.split(/\s+/) ?? [];
  const values = lines[1]?.split(/\s+/) ?? [];
  return Number(values[names.indexOf("ListenOverflows")] ?? Number.NaN);
}

/** An SDK client whose requests may all be in flight at once, each on a socket of its own. */
function burstClient(server: ServerProcess): { client: Client; close: () => Promise<void> } {
  // Idle sockets are let go after 4 s, before the server's 5 s keep-alive timeout closes them: a
  // request sent on a socket the server was closing failed with "fetch failed" (16 of 1,000).
  const agent = new Agent({ connections: CLIENTS + 16, keepAliveTimeout: 4_000, pipelining: 1 });
  const client = new Client({
    apiUrl: server.url,
    apiKey: null,
    callerOptions: {
      maxRetries: 0,
      maxConcurrency: CLIENTS + 16,
      fetch: ((input: string, init: object) => undiciFetch(input, { ...init, dispatcher: agent })) as unknown as typeof fetch,
    },
  });
  return { client, close: () => agent.close() };
}

interface StreamOutcome {
  firstEventMs: number | null;
  endMs: number;
  complete: boolean;
  error: string | null;
}

async function oneStream(client: Client, threadId: string, began: number): Promise<StreamOutcome> {
  let firstEventMs: number | null = null;
  let steps = 0;
  let error: string | null = null;
  try {
    const stream = client.runs.stream(threadId, GRAPH, {
      input: { steps: 0 },
      context: { node_ms: NODE_MS } as never,
      streamMode: "values",
      signal: AbortSignal.timeout(TIMEOUT_S * 1000),
    });
    for await (const chunk of stream) {
      firstEventMs ??= performance.now() - began;
      if (chunk.event === "values") steps = (chunk.data as { steps?: number }).steps ?? steps;
      else if (chunk.event === "error") error = JSON.stringify(chunk.data);
    }
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  }
  return { firstEventMs, endMs: performance.now() - began, complete: error === null && steps === STEPS, error };
}

/** Threads created 50 at a time (not timed). */
async function createThreads(client: Client, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, count - index) }, () => client.threads.create()));
    ids.push(...batch.map((thread) => thread.thread_id));
  }
  return ids;
}

interface Target {
  build: "this" | "baseline";
  server: ServerProcess;
  database: BenchDatabase;
  client: Client;
  close: () => Promise<void>;
}

async function startTarget(build: Target["build"], stamp: string, profileDir: string | undefined): Promise<Target> {
  const database = await createBenchDatabase(build === "this" ? "streams" : "streams_baseline");
  const server = await startServerProcess({
    configPath: CONFIG,
    databaseUrl: database.url,
    logPath: path.join(RESULTS_DIR, `streams-server-${build}-${stamp}.log`),
    repoRoot: build === "baseline" ? BASELINE : undefined,
    cpuProfDir: build === "this" ? profileDir : undefined,
    // As `npm start` runs it: RSS is a target, and running from source adds tsx's compiler.
    entry: "built",
  });
  const { client, close } = burstClient(server);
  // Warm-up: a smaller burst first. With 50 streams, the first timed burst of a run was 2-3 times
  // slower than the later ones whichever server it hit (the same checkout as both `this` and
  // `baseline`: first event p50 2.9 s, then 1.3, 1.0, 1.2 s), so the server timed first looked worse.
  const warm = await createThreads(client, WARMUP);
  await Promise.all(warm.map((threadId) => oneStream(client, threadId, performance.now())));
  return { build, server, database, client, close };
}

async function burst({ build, server, database, client }: Target): Promise<ResultRow> {
  const threads = await createThreads(client, CLIENTS);
  const machine = await waitForQuietMachine();
  const rss = new RssSampler(server);
  const rssBefore = server.rssMb() ?? 0;
  rss.start();
  const cpu = await CpuMeter.start(server, database.name);
  const overflowsBefore = listenOverflows();
  const began = performance.now();
  const outcomes = await Promise.all(threads.map((threadId) => oneStream(client, threadId, began)));
  const seconds = (performance.now() - began) / 1000;
  const usage = await cpu.stop(CLIENTS);
  const overflows = listenOverflows() - overflowsBefore;
  const memory = rss.stop();
  const completed = outcomes.filter((outcome) => outcome.complete).length;
  const firstEvents = outcomes.flatMap((outcome) => (outcome.firstEventMs === null ? [] : [outcome.firstEventMs]));
  const errors = [...new Set(outcomes.flatMap((outcome) => (outcome.error ? [outcome.error.slice(0, 200)] : [])))];
  if (errors.length > 0) console.log(`  ${build}: ${CLIENTS - completed} incomplete; errors: ${errors.slice(0, 5).join(" | ")}`);
  const first = percentiles(firstEvents);
  const end = percentiles(outcomes.map((outcome) => outcome.endMs));
  return {
    scenario: `${CLIENTS} streams at once`,
    build,
    completed,
    first_event_p50_ms: first.p50_ms!,
    first_event_p99_ms: first.p99_ms!,
    end_p50_ms: end.p50_ms!,
    end_p99_ms: end.p99_ms!,
    seconds: round(seconds, 2),
    rss_before_mb: round(rssBefore, 0),
    rss_peak_mb: round(memory.rss_max_mb, 0),
    server_cpu_cores: usage.server_cpu_cores,
    server_cpu_ms_per_stream: usage.server_cpu_ms_per_op,
    postgres_cpu_ms_per_stream: usage.postgres_cpu_ms_per_op,
    client_cpu_ms_per_stream: usage.client_cpu_ms_per_op,
    listen_overflows: overflows,
    machine_busy_pct_before: machine.busy_pct,
    load_1m: usage.load_avg_1m,
  };
}

export async function streamsSuite(stamp: string): Promise<void> {
  const targets: Target[] = [];
  const rows: ResultRow[] = [];
  const profileDir = CPU_PROFILE ? path.join(RESULTS_DIR, `streams-${stamp}-cpuprof`) : undefined;
  try {
    targets.push(await startTarget("this", stamp, profileDir));
    if (BASELINE) targets.push(await startTarget("baseline", stamp, undefined));
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      // Each repeat starts with the other build, so a drift of the machine's load spreads evenly.
      for (const target of repeat % 2 === 0 ? targets : [...targets].reverse()) {
        rows.push(await burst(target));
        console.log(JSON.stringify(rows.at(-1)));
      }
    }
  } finally {
    for (const target of targets) {
      await target.close();
      await target.server.stop();
      await target.database.drop();
    }
  }
  printTable(`${CLIENTS} runs.stream at once, a thread each, ${STEPS} nodes × ${NODE_MS} ms`, rows, [
    "build",
    "completed",
    "first_event_p50_ms",
    "first_event_p99_ms",
    "end_p50_ms",
    "end_p99_ms",
    "seconds",
    "rss_before_mb",
    "rss_peak_mb",
    "server_cpu_cores",
    "server_cpu_ms_per_stream",
    "postgres_cpu_ms_per_stream",
    "client_cpu_ms_per_stream",
    "listen_overflows",
    "machine_busy_pct_before",
    "load_1m",
  ]);
  const profile = profileDir ? busiestCpuProfile(profileDir) : null;
  const cpuProfile = profile ? { file: profile, ...summarizeCpuProfile(profile, 40) } : undefined;
  if (cpuProfile) {
    const table = (list: typeof cpuProfile.by_package) => list.map((row) => ({ scenario: row.name, ms: row.self_ms, pct: row.pct }));
    printTable(`Server CPU profile (${cpuProfile.busy_ms} ms busy, start-up included): self time by package`, table(cpuProfile.by_package), ["ms", "pct"]);
    printTable("Server CPU profile: self time by function", table(cpuProfile.by_function), ["ms", "pct"]);
    printTable("Server CPU profile: inclusive time of the repository's functions", table(cpuProfile.repo_inclusive), ["ms", "pct"]);
  }
  const file = writeResults("streams", stamp, {
    repo: repoState(),
    settings: { CLIENTS, NODE_MS, STEPS, WARMUP, REPEATS, TIMEOUT_S, BASELINE, worker_concurrency: process.env.HANGAR_WORKER_CONCURRENCY ?? "default" },
    rows,
    cpu_profile: cpuProfile,
  });
  console.log(`results: ${file}`);
}
