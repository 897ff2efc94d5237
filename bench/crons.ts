/**
 * Cron scheduler benchmark: BENCH_CRONS (default 10,000) active `* * * * *` crons all due at the
 * same minute boundary, fired by the real scheduler (its Bree thread keeps the clock; the main
 * thread claims and inserts in batches) of a server started with --no-worker, so only firing is
 * measured (the runs stay queued).
 *
 * Scenarios: stateless crons (each firing inserts a thread and a run), thread crons (a run on an
 * existing thread), and stateless crons with two server processes on one database (both claim;
 * each slot must still fire once). Reported per scenario:
 * - lag p50/p95/p99/max: run created_at − slot (created_at is taken when its batch claims);
 * - visible_ms: slot → the bench sees every run committed (polling count(*) every 25 ms);
 * - tick_ms: the scheduler's own time for the tick(s) that fired (from its "cron scheduler tick"
 *   log lines: claim, compose, insert, advance, for all batches), and the batches used;
 * - server and PostgreSQL CPU during the firing, server peak RSS;
 * - exactly once: runs == crons, one per cron, every cron moved to the next minute.
 *
 * Settings: BENCH_CRONS, BENCH_CRON_SCENARIOS
 * (comma list of stateless,thread,two-processes), HANGAR_CRON_BATCH_SIZE (server, default 1000).
 * BENCH_BASELINE=<another checkout> (built and installed, e.g. a worktree of main): each scenario
 * also runs on its build (one after the other, each at its own minute boundary, starting with the
 * other build each scenario), and a table gives this build over the baseline.
 * BENCH_CPU_PROF=1: a V8 CPU profile of this checkout's first server in each scenario, summarized by
 * self time (start-up is in it too; the repository's inclusive times show the firing's share). With
 * BENCH_BASELINE the baseline's first server is profiled too, into its own directory
 * (…-<scenario>-baseline-cpuprof), to compare the two by hand (not summarized here).
 */
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import {
  CpuMeter,
  busiestCpuProfile,
  RESULTS_DIR,
  buildsUnderTest,
  createBenchDatabase,
  envInt,
  inTurn,
  percentiles,
  printTable,
  ratioRows,
  repoState,
  round,
  startServerProcess,
  summarizeCpuProfile,
  waitForQuietMachine,
  wallMs,
  writeResults,
  type BenchDatabase,
  type BuildUnderTest,
  type ResultRow,
  type ServerProcess,
} from "./bench-kit.js";

const CRONS = envInt("BENCH_CRONS", 10_000);
const SCENARIOS = (process.env.BENCH_CRON_SCENARIOS ?? "stateless,thread,two-processes").split(",").map((name) => name.trim());
const CONFIG = "bench/langgraph.json";
/** The slot is the first minute boundary at least this far ahead, so the scheduler is idle before it. */
const MIN_LEAD_MS = 8_000;
const CPU_PROFILE = process.env.BENCH_CPU_PROF === "1";

type Kind = "stateless" | "thread" | "two-processes";
/** Compared between builds when BENCH_BASELINE is given (times in ms, CPU, memory). */
const RATIO_COLUMNS = ["lag_p50_ms", "lag_p99_ms", "visible_ms", "server_cpu_ms", "pg_cpu_ms", "rss_peak_mb"];

interface TickLine {
  time: string;
  tick: { fired: number; batches: number; durationMs: number; deferred: number };
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * One cron through the API (so its stored payload is exactly what the service writes), then its
 * clones in one SQL statement: creating 10,000 through REST takes ~40 s on this machine and is
 * not what this suite measures (bench/crud.ts measures the API). Thread crons get a new thread each.
 */
async function createCrons(server: ServerProcess, databaseUrl: string, kind: Kind): Promise<void> {
  const client = server.client(1);
  const input = { messages: [{ role: "user", content: "scheduled" }] };
  const template =
    kind === "thread"
      ? await client.crons.createForThread((await client.threads.create()).thread_id, "echo", { schedule: "* * * * *", input })
      : await client.crons.create("echo", { schedule: "* * * * *", input, onRunCompleted: "keep" });
  const columns = `cron_id, assistant_id, thread_id, schedule, timezone, payload, metadata, end_time, enabled,
    on_run_completed, next_run_date, created_at, updated_at`;
  const copied = `c.assistant_id, %THREAD%, c.schedule, c.timezone, c.payload, c.metadata, c.end_time, c.enabled,
    c.on_run_completed, c.next_run_date, now(), now()`;
  await withClient(databaseUrl, (db) =>
    kind === "thread"
      ? db.query(
          `WITH new_threads AS (
             INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at, metadata)
             SELECT gen_random_uuid(), now(), now(), now(), '{}' FROM generate_series(2, $2) RETURNING thread_id)
           INSERT INTO crons (${columns})
           SELECT gen_random_uuid(), ${copied.replace("%THREAD%", "t.thread_id")} FROM crons c, new_threads t WHERE c.cron_id = $1`,
          [template.cron_id, CRONS],
        )
      : db.query(
          `INSERT INTO crons (${columns})
           SELECT gen_random_uuid(), ${copied.replace("%THREAD%", "NULL")} FROM crons c, generate_series(2, $2) WHERE c.cron_id = $1`,
          [template.cron_id, CRONS],
        ),
  );
}

/** Tick lines of a server log written after `since` that fired something. */
function firingTicks(logPath: string, since: number): TickLine[] {
  return fs
    .readFileSync(logPath, "utf8")
    .split("\n")
    .filter((line) => line.includes('"cron scheduler tick"'))
    .map((line) => JSON.parse(line) as TickLine)
    .filter((line) => Date.parse(line.time) >= since && line.tick.fired > 0);
}

async function scenario(kind: Kind, { build, repoRoot }: BuildUnderTest, stamp: string): Promise<ResultRow> {
  const database: BenchDatabase = await createBenchDatabase(`crons_${kind.replace("-", "_")}${build === "baseline" ? "_baseline" : ""}`);
  const processes = kind === "two-processes" ? 2 : 1;
  const servers: ServerProcess[] = [];
  try {
    for (let index = 0; index < processes; index++) {
      const logPath = path.join(RESULTS_DIR, `crons-${stamp}-${kind}-${build}-${index}-server.log`);
      // info: the scheduler logs each tick that fired (with its duration) at info.
      const cpuProfDir = CPU_PROFILE && index === 0 ? profileDirOf(stamp, kind, build) : undefined;
      servers.push(
        await startServerProcess({ configPath: CONFIG, databaseUrl: database.url, logPath, args: ["--no-worker"], env: { LOG_LEVEL: "info" }, repoRoot, cpuProfDir }),
      );
    }
    // Before the crons exist and the slot is chosen: on a busy machine this waits up to
    // BENCH_QUIET_WAIT_S (60 s), which, taken just before the slot, ran past it (a second firing
    // was counted as not exactly-once, and the CPU meter started after the firing).
    const machine = await waitForQuietMachine().catch(() => ({ busy_pct: -1 }));
    await createCrons(servers[0]!, database.url, kind);

    // Every cron's slot is the same minute boundary (as `* * * * *` crons created within one
    // minute have); the UPDATE's NOTIFY makes the schedulers re-plan their timers to it.
    const slot = new Date(Math.ceil((Date.now() + MIN_LEAD_MS) / 60_000) * 60_000);
    await withClient(database.url, (client) => client.query("UPDATE crons SET next_run_date = $1", [slot]));
    while (Date.now() < slot.getTime() - 1_500) await new Promise((resolve) => setTimeout(resolve, 250));
    const cpu = await CpuMeter.start(servers[0]!, database.name);
    const peakBefore = Math.max(...servers.map((server) => server.peakRssMb() ?? 0));

    let visibleAt = Number.NaN;
    await withClient(database.url, async (client) => {
      const deadline = slot.getTime() + 120_000;
      while (Date.now() < deadline) {
        const { rows } = await client.query<{ runs: number }>("SELECT count(*)::int AS runs FROM runs");
        if (rows[0]!.runs >= CRONS) {
          visibleAt = wallMs();
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    });
    const cpuUsage = await cpu.stop(CRONS);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // a duplicate firing would land now

    const check = await withClient(database.url, async (client) => {
      const lags = await client.query<{ lag_ms: number }>("SELECT (extract(epoch FROM created_at - $1::timestamptz) * 1000)::float8 AS lag_ms FROM runs", [slot]);
      const counts = await client.query<{ runs: number; crons: number; advanced: number; threads: number }>(
        `SELECT (SELECT count(*)::int FROM runs) AS runs,
           (SELECT count(DISTINCT cron_id)::int FROM runs) AS crons,
           (SELECT count(*)::int FROM crons WHERE next_run_date = $1::timestamptz + interval '1 minute') AS advanced,
           (SELECT count(*)::int FROM threads) AS threads`,
        [slot],
      );
      return { lags: lags.rows.map((row) => row.lag_ms), ...counts.rows[0]! };
    });
    const ticks = servers.flatMap((server) => firingTicks(server.logPath, slot.getTime() - 1_000));
    const exactlyOnce = check.runs === CRONS && check.crons === CRONS && check.advanced === CRONS;
    const lag = percentiles(check.lags, "lag_");
    return {
      scenario: `${kind} x${CRONS}`,
      build,
      busy_before_pct: machine.busy_pct,
      runs: check.runs,
      exactly_once: exactlyOnce ? "yes" : "NO",
      ...lag,
      lag_max_ms: round(Math.max(...check.lags)),
      visible_ms: round(visibleAt - slot.getTime()),
      ticks: ticks.length,
      batches: ticks.reduce((sum, line) => sum + line.tick.batches, 0),
      tick_ms: ticks.map((line) => round(line.tick.durationMs, 0)).join("+"),
      server_cpu_ms: cpuUsage.server_cpu_ms,
      pg_cpu_ms: cpuUsage.postgres_cpu_ms,
      rss_peak_mb: Math.max(peakBefore, ...servers.map((server) => server.peakRssMb() ?? 0)),
      other_cores: cpuUsage.other_cpu_cores,
    };
  } finally {
    for (const server of servers) await server.stop();
    await database.drop();
  }
}

function profileDirOf(stamp: string, kind: Kind, build: BuildUnderTest["build"] = "this"): string {
  return path.join(RESULTS_DIR, `crons-${stamp}-${kind}-${build === "this" ? "" : `${build}-`}cpuprof`);
}

/** The profile of this build's first server in each scenario (BENCH_CPU_PROF=1), by self time. */
function printCpuProfiles(stamp: string): Record<string, unknown> {
  const summaries: Record<string, unknown> = {};
  for (const kind of new Set(SCENARIOS as Kind[])) {
    const profile = fs.existsSync(profileDirOf(stamp, kind)) ? busiestCpuProfile(profileDirOf(stamp, kind)) : null;
    if (!profile) continue;
    const summary = summarizeCpuProfile(profile, 30);
    const table = (list: typeof summary.by_package) => list.map((row) => ({ scenario: row.name, ms: row.self_ms, pct: row.pct }));
    printTable(`${kind}: server CPU profile (${summary.busy_ms} ms busy, start-up included), self time by package`, table(summary.by_package), ["ms", "pct"]);
    printTable(`${kind}: self time by function`, table(summary.by_function), ["ms", "pct"]);
    printTable(`${kind}: inclusive time of the repository's functions`, table(summary.repo_inclusive), ["ms", "pct"]);
    summaries[kind] = { file: profile, ...summary };
  }
  return summaries;
}

export async function cronsSuite(stamp: string): Promise<void> {
  const rows: ResultRow[] = [];
  const builds = buildsUnderTest();
  for (const kind of SCENARIOS) {
    if (!["stateless", "thread", "two-processes"].includes(kind)) throw new Error(`BENCH_CRON_SCENARIOS: unknown scenario '${kind}'`);
  }
  for (const [index, kind] of (SCENARIOS as Kind[]).entries()) {
    for (const build of inTurn(builds, index)) rows.push(await scenario(kind, build, stamp));
  }
  printTable("Cron firing: all crons due at one minute boundary (lags in ms from the slot)", rows, [
    "build",
    "busy_before_pct",
    "runs",
    "exactly_once",
    "lag_p50_ms",
    "lag_p95_ms",
    "lag_p99_ms",
    "lag_max_ms",
    "visible_ms",
    "ticks",
    "batches",
    "tick_ms",
    "server_cpu_ms",
    "pg_cpu_ms",
    "rss_peak_mb",
    "other_cores",
  ]);
  const ratios = builds.length > 1 ? ratioRows(rows, RATIO_COLUMNS) : [];
  if (ratios.length > 0) printTable("This build over the baseline (below 1: less)", ratios, RATIO_COLUMNS);
  const cpuProfiles = CPU_PROFILE ? printCpuProfiles(stamp) : undefined;
  const file = writeResults("crons", stamp, {
    suite: "crons",
    settings: {
      crons: CRONS,
      batch_size: process.env.HANGAR_CRON_BATCH_SIZE ?? "1000 (default)",
      config: CONFIG,
      baseline: builds.find((build) => build.build === "baseline")?.repoRoot ?? null,
      node: process.version,
      repo: repoState(),
    },
    scenarios: rows,
    baseline_ratios: ratios,
    cpu_profiles: cpuProfiles,
  });
  console.log(`\nCron results: ${file}`);
}
