/**
 * Start-up benchmark: how long the built server (`node dist/src/cli.js serve`, as `npm start`
 * runs it, on the example deployment) takes to answer /ok, and how much memory it holds then and
 * once idle, on both databases:
 *
 * - embedded, first start: a new HANGAR_DATA_DIR (initdb, migrations);
 * - embedded, restart: the same directory again;
 * - postgres, first start: a new database (migrations); postgres, restart: the same one again.
 *
 * Each scenario runs BENCH_STARTUP_REPEATS times (default 3; medians reported), each on a new
 * data directory or database for the "first start" rows. RSS is the server process's VmRSS at
 * /ok, after BENCH_STARTUP_IDLE_S seconds idle (default 10; median and max, since V8 may or may not
 * have shrunk its heap by then) and once settled, BENCH_STARTUP_SETTLE_S seconds after /ok
 * (default 30): V8's memory reducer compacts the old generation and shrinks the young one about
 * 8 s after the last full GC once allocation has calmed down, which lands on either side of the
 * 10 s mark (measured on PostgreSQL: 148–224 MB at 10 s, 143–158 MB at 30 s). Plus its children's (if any);
 * CPU is the server's user + system time until /ok, and apart that of the child processes it
 * ran and waited for until then (initdb of a new embedded database). A last row times `scripts/build.ts` on a
 * checkout where nothing changed (the build check `npm start` runs before the server).
 *
 * With BENCH_BASELINE (another built checkout), each repeat starts both builds, in alternating
 * order, and a ratio row per scenario follows (this build over the baseline).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import {
  REPO_ROOT,
  RESULTS_DIR,
  buildsUnderTest,
  createBenchDatabase,
  envInt,
  inTurn,
  printTable,
  ratioRows,
  repoState,
  round,
  startServerProcess,
  waitForQuietMachine,
  writeResults,
  type BenchDatabase,
  type BuildUnderTest,
  type ResultRow,
} from "./bench-kit.js";

const REPEATS = Math.max(1, envInt("BENCH_STARTUP_REPEATS", 3));
const IDLE_S = envInt("BENCH_STARTUP_IDLE_S", 10);
const SETTLE_S = Math.max(IDLE_S, envInt("BENCH_STARTUP_SETTLE_S", 30));

interface StartSample {
  ok_ms: number;
  cpu_ms: number;
  children_cpu_ms: number;
  rss_ok_mb: number;
  rss_idle_mb: number;
  rss_settled_mb: number;
  peak_mb: number;
  children_mb: number;
}

async function startOnce(
  label: string,
  stamp: string,
  target: { databaseUrl: string | null; dataDir?: string; build: BuildUnderTest },
): Promise<StartSample> {
  const logPath = path.join(RESULTS_DIR, `startup-${stamp}-${target.build.build}-${label}.log`);
  const started = performance.now();
  const server = await startServerProcess({
    repoRoot: target.build.repoRoot,
    configPath: "examples/langgraph.json",
    databaseUrl: target.databaseUrl,
    logPath,
    entry: "built",
    env: target.dataDir ? { HANGAR_DATA_DIR: target.dataDir } : {},
  });
  try {
    const ok_ms = Math.round(performance.now() - started);
    const cpu_ms = Math.round(server.cpuMs());
    const children_cpu_ms = Math.round(server.exitedChildrenCpuMs());
    const rss_ok_mb = server.rssMb() ?? Number.NaN;
    await sleep(IDLE_S * 1000);
    const rss_idle_mb = server.rssMb() ?? Number.NaN;
    await sleep((SETTLE_S - IDLE_S) * 1000);
    return {
      ok_ms,
      cpu_ms,
      children_cpu_ms,
      rss_ok_mb,
      rss_idle_mb,
      rss_settled_mb: server.rssMb() ?? Number.NaN,
      peak_mb: server.peakRssMb() ?? Number.NaN,
      children_mb: server.childrenRssMb(),
    };
  } finally {
    await server.stop();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : round((sorted[middle - 1]! + sorted[middle]!) / 2, 1);
}

function summarize(scenario: string, build: BuildUnderTest, samples: StartSample[], busyPct: number): ResultRow {
  const of = (key: keyof StartSample) => median(samples.map((sample) => sample[key]));
  return {
    scenario,
    build: build.build,
    busy_before_pct: busyPct,
    n: samples.length,
    ok_ms: of("ok_ms"),
    ok_ms_max: Math.max(...samples.map((sample) => sample.ok_ms)),
    cpu_ms: of("cpu_ms"),
    children_cpu_ms: of("children_cpu_ms"),
    rss_ok_mb: of("rss_ok_mb"),
    rss_idle_mb: of("rss_idle_mb"),
    rss_idle_max_mb: Math.max(...samples.map((sample) => sample.rss_idle_mb)),
    rss_settled_mb: of("rss_settled_mb"),
    peak_mb: of("peak_mb"),
    children_mb: of("children_mb"),
  };
}

/** `scripts/build.ts` of a checkout, as `npm start` runs it first; returns its wall time. */
function runBuild(root = REPO_ROOT): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/build.ts"], { cwd: root, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`scripts/build.ts failed:\n${result.stdout}${result.stderr}`);
  return Math.round(performance.now() - started);
}

const SCENARIOS = ["embedded, first start", "embedded, restart", "postgres, first start", "postgres, restart"] as const;

export async function startupSuite(stamp: string): Promise<void> {
  const builds = buildsUnderTest();
  // The suite measures the built servers: build what changed first (not timed), then the check alone.
  for (const build of builds) runBuild(build.repoRoot);
  const rows: ResultRow[] = [];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "hangar-bench-startup-"));
  const databases: BenchDatabase[] = [];
  try {
    const samples = new Map(builds.map((build) => [build, new Map(SCENARIOS.map((scenario) => [scenario, [] as StartSample[]]))]));
    let busy = 100;
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      for (const build of inTurn(builds, repeat)) {
        const of = samples.get(build)!;
        busy = Math.min(busy, (await waitForQuietMachine()).busy_pct);
        const dataDir = path.join(scratch, `data-${build.build}-${repeat}`);
        of.get("embedded, first start")!.push(await startOnce(`embedded-first-${repeat}`, stamp, { databaseUrl: null, dataDir, build }));
        of.get("embedded, restart")!.push(await startOnce(`embedded-restart-${repeat}`, stamp, { databaseUrl: null, dataDir, build }));
        const database = await createBenchDatabase("startup");
        databases.push(database);
        of.get("postgres, first start")!.push(await startOnce(`postgres-first-${repeat}`, stamp, { databaseUrl: database.url, build }));
        of.get("postgres, restart")!.push(await startOnce(`postgres-restart-${repeat}`, stamp, { databaseUrl: database.url, build }));
      }
    }
    for (const build of builds) for (const scenario of SCENARIOS) rows.push(summarize(scenario, build, samples.get(build)!.get(scenario)!, busy));
    for (const build of builds) {
      const times = Array.from({ length: REPEATS }, () => runBuild(build.repoRoot));
      rows.push({ scenario: "build check, nothing changed", build: build.build, n: REPEATS, ok_ms: median(times), ok_ms_max: Math.max(...times) });
    }
    if (builds.length > 1) rows.push(...ratioRows(rows, ["ok_ms", "cpu_ms", "rss_ok_mb", "rss_idle_mb", "rss_settled_mb", "peak_mb"]));
  } finally {
    for (const database of databases) await database.drop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  printTable(`Start-up of the built server (example deployment; medians of ${REPEATS}, idle ${IDLE_S} s, settled ${SETTLE_S} s)`, rows, [
    "build",
    "busy_before_pct",
    "n",
    "ok_ms",
    "ok_ms_max",
    "cpu_ms",
    "children_cpu_ms",
    "rss_ok_mb",
    "rss_idle_mb",
    "rss_idle_max_mb",
    "rss_settled_mb",
    "peak_mb",
    "children_mb",
  ]);
  const file = writeResults("startup", stamp, { suite: "startup", ...repoState(), node: process.version, repeats: REPEATS, idle_s: IDLE_S, settle_s: SETTLE_S, rows });
  console.log(`\nresults: ${file}`);
}
