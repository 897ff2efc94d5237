/**
 * Shared machinery of the benchmarks: a fresh PostgreSQL database per suite, a Hangar server in
 * a child process (so its RSS and CPU are its own, read from /proc), a fixed-concurrency driver,
 * percentiles, a compact table, JSON results, an optional CPU profile summary, and a PostgreSQL
 * wire-protocol proxy that counts the server's round trips and statements.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Client } from "@langchain/langgraph-sdk";
import pg from "pg";

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, "..");
export const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? "/tmp/hangar-bench";
const CLOCK_TICKS_PER_SECOND = 100; // getconf CLK_TCK on Linux

export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
  return value;
}

/** Wall-clock milliseconds with sub-millisecond precision (comparable with server timestamps on this machine). */
export function wallMs(): number {
  return performance.timeOrigin + performance.now();
}

/** The code being measured: commit and how many files differ from it (the tree may be mid-edit). */
export function repoState(): { commit: string | null; changed_files: number | null } {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: REPO_ROOT, encoding: "utf8" }).trim();
    const status = execFileSync("git", ["status", "--porcelain"], { cwd: REPO_ROOT, encoding: "utf8" });
    return { commit, changed_files: status.split("\n").filter(Boolean).length };
  } catch {
    return { commit: null, changed_files: null };
  }
}

// ---------------------------------------------------------------------------------------------
// Database

const baseUrl = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");

async function withAdmin<T>(fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: baseUrl.toString() });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/**
 * An empty database on DATABASE_URL's server; the server migrates it at start. BENCH_DB_SETTINGS
 * ("synchronous_commit=off,jit=off") sets parameters on this database only, for what-if runs.
 */
export async function createBenchDatabase(suite: string): Promise<BenchDatabase> {
  const name = `hangar_bench_${suite}_${Date.now()}`;
  const settings = (process.env.BENCH_DB_SETTINGS ?? "")
    .split(",")
    .map((setting) => setting.trim())
    .filter(Boolean)
    .map((setting) => {
      const match = /^([a-z_.]+)\s*=\s*([\w.-]+)$/i.exec(setting);
      if (!match) throw new Error(`BENCH_DB_SETTINGS: expected name=value, got '${setting}'`);
      return `ALTER DATABASE ${name} SET ${match[1]} = '${match[2]}'`;
    });
  await withAdmin(async (admin) => {
    await admin.query(`CREATE DATABASE ${name}`);
    for (const statement of settings) await admin.query(statement);
  });
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

// ---------------------------------------------------------------------------------------------
// Server process

export interface ServerOptions {
  /** langgraph.json of the deployment, relative to the repository root or absolute. */
  configPath: string;
  /** null: the embedded database (HANGAR_DATA_DIR in `env`). */
  databaseUrl: string | null;
  /** Where the server's stdout/stderr go. */
  logPath: string;
  /** Write a V8 CPU profile (.cpuprofile) into this directory when the server exits. */
  cpuProfDir?: string;
  /** Extra `serve` arguments (e.g. --no-worker). */
  args?: string[];
  /** Environment over the inherited one (e.g. LOG_LEVEL for a suite that reads the server log). */
  env?: Record<string, string>;
  /** How long start-up may take before /ok answers (default 120 s). */
  startTimeoutMs?: number;
  /**
   * "source" (default): `node --import tsx src/cli.ts`; "built": `node dist/src/cli.js`, as
   * `npm start` runs it (dist must be current: see scripts/build.ts).
   */
  entry?: "source" | "built";
  /** Another checkout to run the server from (a baseline to compare with); default: this one. */
  repoRoot?: string;
}

export interface ServerProcess {
  url: string;
  pid: number;
  logPath: string;
  client(concurrency: number): Client;
  /** Resident set size (VmRSS) in MiB; null once the process is gone. */
  rssMb(): number | null;
  /** Peak resident set size (VmHWM) in MiB. */
  peakRssMb(): number | null;
  /** Summed VmRSS of the server's child processes (e.g. an esbuild service), MiB. */
  childrenRssMb(): number;
  /** User + system CPU time consumed so far, ms. */
  cpuMs(): number;
  /** CPU time of the server's child processes that have exited and been waited for (cutime + cstime), ms. */
  exitedChildrenCpuMs(): number;
  /** SIGTERM (graceful: drains the worker, flushes the CPU profile), SIGKILL after 20 s. */
  stop(): Promise<void>;
}

/** A port nothing listens on now (the OS picks it), for a server the bench starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function readProcStatusKb(pid: number, field: string): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

function readProcCpuMs(pid: number, of: "self" | "exited children" = "self"): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start at field 3; utime, stime are
    // 14, 15, and cutime, cstime (children waited for) 16, 17.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const first = of === "self" ? 11 : 13;
    return ((Number(fields[first]) + Number(fields[first + 1])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** Direct children of a process, from every one of its threads' children list. */
function childPids(pid: number): number[] {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/))
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no server log)";
  }
}

function withoutDatabaseUrl(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DATABASE_URL: _ignored, ...rest } = env;
  return rest;
}

/**
 * `node --import tsx src/cli.ts serve --config <json>` (or the built dist/src/cli.js) with DATABASE_URL and PORT set. Inherits
 * the environment, so HANGAR_WORKER_CONCURRENCY, HANGAR_DB_POOL_SIZE etc. reach the server.
 */
export async function startServerProcess(options: ServerOptions): Promise<ServerProcess> {
  const port = await freePort();
  fs.mkdirSync(path.dirname(options.logPath), { recursive: true });
  const logFd = fs.openSync(options.logPath, "a");
  const nodeArgs = options.entry === "built" ? [] : ["--import", "tsx"];
  if (options.cpuProfDir) {
    fs.mkdirSync(options.cpuProfDir, { recursive: true });
    nodeArgs.push("--cpu-prof", "--cpu-prof-dir", options.cpuProfDir);
  }
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, options.entry === "built" ? "dist/src/cli.js" : "src/cli.ts", "serve", "--config", path.resolve(options.repoRoot ?? REPO_ROOT, options.configPath), ...(options.args ?? [])],
    {
      cwd: options.repoRoot ?? REPO_ROOT,
      env: {
        ...withoutDatabaseUrl(process.env),
        ...(options.databaseUrl !== null ? { DATABASE_URL: options.databaseUrl } : {}),
        HOST: "127.0.0.1",
        PORT: String(port),
        LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL ?? "warn",
        HANGAR_API_KEYS: "",
        NODE_ENV: "production",
        ...options.env,
      },
      stdio: ["ignore", logFd, logFd],
    },
  );
  fs.closeSync(logFd);
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", () => {
      exited = true;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const pid = child.pid!;

  const startTimeoutMs = options.startTimeoutMs ?? 120_000;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (exited) throw new Error(`the server exited during start-up; its log (${options.logPath}):\n${tail(options.logPath)}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not answer /ok within ${startTimeoutMs / 1000} s; its log:\n${tail(options.logPath)}`);
    }
    try {
      const response = await fetch(`${url}/ok`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    pid,
    logPath: options.logPath,
    client: (concurrency) =>
      new Client({ apiUrl: url, apiKey: null, callerOptions: { maxRetries: 0, maxConcurrency: Math.max(64, concurrency * 4) } }),
    rssMb: () => {
      const kb = readProcStatusKb(pid, "VmRSS");
      return kb === null ? null : Math.round(kb / 102.4) / 10;
    },
    peakRssMb: () => {
      const kb = readProcStatusKb(pid, "VmHWM");
      return kb === null ? null : Math.round(kb / 102.4) / 10;
    },
    childrenRssMb: () => {
      const kb = childPids(pid).reduce((sum, child) => sum + (readProcStatusKb(child, "VmRSS") ?? 0), 0);
      return Math.round(kb / 102.4) / 10;
    },
    cpuMs: () => readProcCpuMs(pid),
    exitedChildrenCpuMs: () => readProcCpuMs(pid, "exited children"),
    async stop() {
      if (exited) return;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await exit;
      clearTimeout(killer);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Before/after in one run

/** Which build a server runs: this checkout's, or the baseline checkout's (BENCH_BASELINE). */
export type Build = "this" | "baseline";

export interface BuildUnderTest {
  build: Build;
  /** The checkout to start the server from (ServerOptions.repoRoot); undefined: this one. */
  repoRoot: string | undefined;
}

/**
 * The builds a suite runs its phases on: this checkout, and, when BENCH_BASELINE names another
 * checkout (built and installed, e.g. a worktree of main), that one too, so a change is compared
 * with its baseline in one run on a shared machine. BENCH_PROTOCOL_BASELINE is its older name.
 */
export function buildsUnderTest(): BuildUnderTest[] {
  const baseline = process.env.BENCH_BASELINE || process.env.BENCH_PROTOCOL_BASELINE;
  if (!baseline) return [{ build: "this", repoRoot: undefined }];
  const root = path.resolve(baseline);
  if (!fs.existsSync(path.join(root, "src/cli.ts")) || !fs.existsSync(path.join(root, "node_modules"))) {
    throw new Error(`BENCH_BASELINE: ${root} is not an installed Hangar checkout (src/cli.ts and node_modules expected)`);
  }
  if (root === REPO_ROOT) throw new Error("BENCH_BASELINE names this checkout; give another one (e.g. a worktree of main)");
  return [
    { build: "this", repoRoot: undefined },
    { build: "baseline", repoRoot: root },
  ];
}

/**
 * `items` in the order of turn `turn`: as given on even turns, reversed on odd ones, so that a
 * drift of the machine's load (or a phase's position on its database) spreads evenly over the
 * builds compared, instead of always favouring the one measured first.
 */
export function inTurn<T>(items: readonly T[], turn: number): T[] {
  return turn % 2 === 0 ? [...items] : [...items].reverse();
}

/**
 * After rows measured on both builds (a `build` column, the same `scenario` on each), one row per
 * scenario with this build's value over the baseline's for each of `columns` (averaged over the
 * turns when a scenario ran several times): below 1 is less (faster, for times and CPU).
 */
export function ratioRows(rows: readonly ResultRow[], columns: readonly string[]): ResultRow[] {
  const scenarios = [...new Set(rows.map((row) => row.scenario))];
  const mean = (scenario: string, build: Build, column: string) => {
    const values = rows.filter((row) => row.scenario === scenario && row.build === build).map((row) => row[column]);
    const numbers = values.filter((value): value is number => typeof value === "number" && Number.isFinite(value));
    return numbers.length === 0 ? Number.NaN : numbers.reduce((sum, value) => sum + value, 0) / numbers.length;
  };
  return scenarios.map((scenario) => {
    const row: ResultRow = { scenario, build: "this/baseline" };
    for (const column of columns) {
      const before = mean(scenario, "baseline", column);
      row[column] = before > 0 ? round(mean(scenario, "this", column) / before, 2) : null;
    }
    return row;
  });
}

/** Samples the server's RSS every `intervalMs` while a phase runs; keeps one sample a second. */
export class RssSampler {
  private max = 0;
  private timer: NodeJS.Timeout | null = null;
  private started = 0;
  private readonly timeline: Array<[seconds: number, mb: number]> = [];

  constructor(
    private readonly server: ServerProcess,
    private readonly intervalMs = 100,
  ) {}

  start(): void {
    this.started = performance.now();
    this.max = this.server.rssMb() ?? 0;
    this.timeline.push([0, this.max]);
    this.timer = setInterval(() => {
      const mb = this.server.rssMb() ?? 0;
      this.max = Math.max(this.max, mb);
      const seconds = Math.floor((performance.now() - this.started) / 1000);
      if (seconds > this.timeline.at(-1)![0]) this.timeline.push([seconds, mb]);
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): { rss_max_mb: number; rss_end_mb: number; rss_timeline: Array<[number, number]> } {
    if (this.timer) clearInterval(this.timer);
    const end = this.server.rssMb() ?? 0;
    this.timeline.push([round((performance.now() - this.started) / 1000, 1), end]);
    return { rss_max_mb: Math.max(this.max, end), rss_end_mb: end, rss_timeline: this.timeline };
  }
}

// ---------------------------------------------------------------------------------------------
// CPU accounting

function machineCpu(): { busy: number; total: number } {
  const [line] = fs.readFileSync("/proc/stat", "utf8").split("\n", 1);
  const ticks = line!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  const total = ticks.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/**
 * WAL syncs (flushes of the write-ahead log to disk) the whole PostgreSQL cluster has done, from
 * pg_stat_wal. Backends report theirs at most once a second, and an idle backend within 10 s
 * (PostgreSQL 15's PGSTAT_IDLE_INTERVAL), so the reading waits 11 s after the work it counts.
 */
export async function clusterWalSyncs(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const { rows } = await withAdmin((admin) => admin.query<{ wal_sync: string }>("SELECT wal_sync FROM pg_stat_wal"));
  return Number(rows[0]!.wal_sync);
}

/** Process ids of the PostgreSQL backends connected to `database` (the server's pool and listener). */
export async function databaseBackendPids(database: string): Promise<number[]> {
  const { rows } = await withAdmin((admin) =>
    admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [database]),
  );
  return rows.map((row) => row.pid);
}

/** Busy share of all cores over `ms` (to see whether other work competes for the machine). */
export async function machineBusyPct(ms = 1_000): Promise<number> {
  const start = machineCpu();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const end = machineCpu();
  return Math.round(((end.busy - start.busy) / Math.max(1, end.total - start.total)) * 100);
}

/**
 * On a shared machine, waits (up to `maxWaitMs`) until a 1 s sample shows at most `maxBusyPct`
 * of the cores busy, so that phases start unloaded. BENCH_QUIET_PCT (default 30; 0 disables)
 * and BENCH_QUIET_WAIT_S (default 60) set the threshold and the patience. Returns the last sample.
 */
export async function waitForQuietMachine(): Promise<{ busy_pct: number; waited_s: number; quiet: boolean }> {
  const maxBusyPct = envInt("BENCH_QUIET_PCT", 30);
  const maxWaitMs = envInt("BENCH_QUIET_WAIT_S", 60) * 1000;
  const started = performance.now();
  let busy = 0;
  do {
    busy = await machineBusyPct(1_000);
    if (maxBusyPct === 0 || busy <= maxBusyPct) return { busy_pct: busy, waited_s: round((performance.now() - started) / 1000, 1), quiet: true };
  } while (performance.now() - started < maxWaitMs);
  return { busy_pct: busy, waited_s: round((performance.now() - started) / 1000, 1), quiet: false };
}

/**
 * CPU used during a phase, in cores (CPU seconds per wall second, 2 = both cores of this machine)
 * and ms per operation: the server process, this (client) process, the PostgreSQL backends of the
 * bench database, and what the rest of the machine used meanwhile (other processes: contention).
 */
export class CpuMeter {
  private readonly serverStart: number;
  private readonly clientStart = process.cpuUsage();
  private readonly machineStart = machineCpu();
  private readonly postgresStart: Map<number, number>;
  private readonly wallStart = performance.now();
  private readonly loadStart = os.loadavg()[0]!;

  private constructor(
    private readonly server: ServerProcess,
    private readonly database: string | null,
    postgresPids: readonly number[],
  ) {
    this.serverStart = server.cpuMs();
    const start = postgresPids.map((pid): [number, number] => [pid, readProcCpuMs(pid)]);
    this.postgresStart = new Map(start.filter(([, ms]) => Number.isFinite(ms)));
  }

  /** `database`: also count the CPU of its PostgreSQL backends (the server's connections). */
  static async start(server: ServerProcess, database: string | null = null): Promise<CpuMeter> {
    return new CpuMeter(server, database, database ? await databaseBackendPids(database) : []);
  }

  async stop(operations: number) {
    const wall = performance.now() - this.wallStart;
    const server = this.server.cpuMs() - this.serverStart;
    const clientUsage = process.cpuUsage(this.clientStart);
    const client = (clientUsage.user + clientUsage.system) / 1000;
    // Backends opened during the phase count whole; ones closed during it are missed (rare: pools keep them).
    const endPids = this.database ? await databaseBackendPids(this.database) : [];
    let postgres = 0;
    for (const pid of new Set([...this.postgresStart.keys(), ...endPids])) {
      const now = readProcCpuMs(pid);
      if (Number.isFinite(now)) postgres += now - (this.postgresStart.get(pid) ?? 0);
    }
    const machine = machineCpu();
    const cores = os.cpus().length;
    const busyShare = (machine.busy - this.machineStart.busy) / Math.max(1, machine.total - this.machineStart.total);
    const busyCores = busyShare * cores;
    const cpuCores = (ms: number) => round(ms / wall, 2);
    return {
      // Totals too: per operation, a phase of 10,000 firings rounds to 100 ms of CPU.
      server_cpu_ms: round(server, 0),
      postgres_cpu_ms: round(postgres, 0),
      server_cpu_ms_per_op: round(server / operations, 2),
      client_cpu_ms_per_op: round(client / operations, 2),
      postgres_cpu_ms_per_op: round(postgres / operations, 2),
      server_cpu_cores: cpuCores(server),
      client_cpu_cores: cpuCores(client),
      postgres_cpu_cores: cpuCores(postgres),
      other_cpu_cores: round(Math.max(0, busyCores - (server + client + postgres) / wall), 2),
      machine_busy_pct: Math.round(busyShare * 100),
      load_avg_1m: round(Math.max(this.loadStart, os.loadavg()[0]!), 2),
    };
  }
}

/**
 * The server's event-loop delay over a phase, read from its /metrics: prom-client's monitor
 * (perf_hooks.monitorEventLoopDelay), which each scrape reads and resets. It is how long a ready
 * callback (a statement's answer, a request, a timer) waited for the server's one thread: with
 * 16 graphs running on it, the join gap at c=16 is mostly this wait, not PostgreSQL. The monitor's
 * timer fires every 10 ms (prom-client's default precision) and its samples include that
 * interval (an idle server reads p50 10.1 ms), so 10 ms is subtracted. Null where /metrics is not
 * served openly (a deployment with API keys).
 */
export class EventLoopLag {
  private static readonly MONITOR_INTERVAL_MS = 10;

  private constructor(private readonly server: ServerProcess) {}

  /** Resets the server's monitor (a scrape), so stop() reads this phase alone. */
  static async start(server: ServerProcess): Promise<EventLoopLag> {
    await EventLoopLag.scrape(server);
    return new EventLoopLag(server);
  }

  async stop(): Promise<{ loop_lag_p50_ms: number | null; loop_lag_p99_ms: number | null }> {
    const seconds = await EventLoopLag.scrape(this.server);
    const lag = (value: number | undefined) => (value === undefined ? null : round(Math.max(0, value * 1000 - EventLoopLag.MONITOR_INTERVAL_MS), 2));
    return { loop_lag_p50_ms: lag(seconds.p50), loop_lag_p99_ms: lag(seconds.p99) };
  }

  private static async scrape(server: ServerProcess): Promise<Record<string, number>> {
    const response = await fetch(`${server.url}/metrics`).catch(() => null);
    if (!response?.ok) return {};
    const values: Record<string, number> = {};
    for (const match of (await response.text()).matchAll(/^nodejs_eventloop_lag_(p50|p99)_seconds(?:\{[^}]*\})? (\S+)$/gm)) values[match[1]!] = Number(match[2]);
    return values;
  }
}

// ---------------------------------------------------------------------------------------------
// Measuring

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Nearest-rank percentiles (ms, 2 decimals) of unsorted samples. */
export function percentiles(samples: number[], prefix = ""): Record<string, number> {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => (sorted.length === 0 ? Number.NaN : round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!));
  return { [`${prefix}p50_ms`]: at(50), [`${prefix}p95_ms`]: at(95), [`${prefix}p99_ms`]: at(99) };
}

/** Runs `operation(0..count-1)` on `concurrency` loops; returns the elapsed seconds. */
export async function runLoops(count: number, concurrency: number, operation: (index: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await operation(next++);
    }),
  );
  return (performance.now() - started) / 1000;
}

/**
 * Like runLoops, but operation `i` starts no earlier than `i / ratePerSecond` seconds after the
 * start (an open-loop load of that rate, at most `concurrency` in flight): latencies then show
 * the server at that load, not at saturation, where a closed loop's latency is concurrency over
 * throughput whatever the server does.
 */
export async function runPaced(
  count: number,
  ratePerSecond: number,
  concurrency: number,
  operation: (index: number) => Promise<void>,
): Promise<number> {
  const started = performance.now();
  return runLoops(count, concurrency, async (index) => {
    const due = started + (index * 1000) / ratePerSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    await operation(index);
  });
}

/** One printed row: a scenario and its numbers. */
export type ResultRow = { scenario: string } & Record<string, string | number | null>;

export function printTable(title: string, rows: ResultRow[], columns: string[]): void {
  const header = ["scenario", ...columns];
  const cells = rows.map((row) => header.map((column) => formatCell(row[column])));
  const widths = header.map((column, i) => Math.max(column.length, ...cells.map((line) => line[i]!.length)));
  const render = (line: string[]) => line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  console.log(`\n${title}`);
  console.log(render(header));
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const line of cells) console.log(render(line));
}

function formatCell(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "number") return Number.isNaN(value) ? "-" : String(value);
  return String(value);
}

export function timestamp(): string {
  return new Date().toISOString().replace(/[:.]/g, "-");
}

export function writeResults(suite: string, stamp: string, data: unknown): string {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${suite}-${stamp}.json`);
  fs.writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}

// ---------------------------------------------------------------------------------------------
// CPU profile summary

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

const NOT_BUSY = new Set(["(idle)", "(program)"]);

/**
 * Of a .cpuprofile: busy (non-idle) time; self time by package and by function; inclusive time
 * of the repository's own functions (src/, migrations/ …), largest first; percentages of busy time.
 */
export function summarizeCpuProfile(file: string, top = 25) {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const keyOf = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    return `${functionName || "(anonymous)"} ${shortUrl(url)}${url ? `:${lineNumber + 1}` : ""}`.trim();
  };
  const functions = new Map<string, number>();
  const packages = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const nativeByCaller = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id)!;
    if (NOT_BUSY.has(node.callFrame.functionName)) return;
    busy += ms;
    const key = keyOf(node);
    functions.set(key, (functions.get(key) ?? 0) + ms);
    const pkg = packageOf(node.callFrame.url, node.callFrame.functionName);
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms);
    if (!node.callFrame.url && !node.callFrame.functionName.startsWith("(")) {
      let caller = parentOf.get(id);
      while (caller !== undefined && !byId.get(caller)!.callFrame.url) caller = parentOf.get(caller);
      const callerKey = `${key} ← ${caller === undefined ? "?" : keyOf(byId.get(caller)!)}`;
      nativeByCaller.set(callerKey, (nativeByCaller.get(callerKey) ?? 0) + ms);
    }
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frame = byId.get(at)!;
      if (!frame.callFrame.url.includes(REPO_ROOT) || frame.callFrame.url.includes("node_modules")) continue;
      const frameKey = keyOf(frame);
      if (seen.has(frameKey)) continue;
      seen.add(frameKey);
      inclusive.set(frameKey, (inclusive.get(frameKey) ?? 0) + ms);
    }
  });
  const ranked = (map: Map<string, number>, limit: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, ms]) => ({ name, self_ms: Math.round(ms), pct: round((ms / busy) * 100, 1) }));
  return {
    busy_ms: Math.round(busy),
    by_package: ranked(packages, 15),
    by_function: ranked(functions, top),
    repo_inclusive: ranked(inclusive, top),
    native_by_caller: ranked(nativeByCaller, 15),
  };
}

/** Of the profiles a process wrote (one per thread), the busiest: the main thread's. */
export function busiestCpuProfile(directory: string): string | null {
  const files = fs.readdirSync(directory).filter((file) => file.endsWith(".cpuprofile"));
  let best: { file: string; busy: number } | null = null;
  for (const file of files) {
    const busy = summarizeCpuProfile(path.join(directory, file), 1).busy_ms;
    if (!best || busy > best.busy) best = { file: path.join(directory, file), busy };
  }
  return best?.file ?? null;
}

function shortUrl(url: string): string {
  const nodeModules = url.lastIndexOf("node_modules/");
  if (nodeModules >= 0) return url.slice(nodeModules + "node_modules/".length);
  const repo = url.indexOf(REPO_ROOT);
  if (repo >= 0) return url.slice(repo + REPO_ROOT.length + 1);
  return url;
}

function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return url.split("/")[0] === "node:internal" ? `node:internal/${url.split("/")[1]}` : url;
  const nodeModules = url.lastIndexOf("node_modules/");
  if (nodeModules >= 0) {
    const parts = url.slice(nodeModules + "node_modules/".length).split("/");
    return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const repo = url.indexOf(REPO_ROOT);
  if (repo >= 0) return url.slice(repo + REPO_ROOT.length + 1).split("/").slice(0, 2).join("/");
  return url;
}

// ---------------------------------------------------------------------------------------------
// SQL accounting proxy

/**
 * A TCP proxy in front of PostgreSQL that reads the frontend (client → server) side of the wire
 * protocol and counts round trips (one per Sync after extended-protocol messages, one per simple
 * Query) and statement executions (each Query, and each Bind by the text its statement was parsed
 * from, so named prepared statements parsed once per connection are still counted per use).
 * node-postgres does not pipeline, so every Sync / Query is one network round trip of one pooled
 * connection.
 */
export class SqlCountingProxy {
  private server: net.Server | null = null;
  private counting = false;
  roundTrips = 0;
  readonly statements = new Map<string, number>();

  constructor(private readonly target: net.NetConnectOpts) {}

  async listen(): Promise<number> {
    this.server = net.createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Clears the counters and starts counting. */
  reset(): void {
    this.roundTrips = 0;
    this.statements.clear();
    this.counting = true;
  }

  pause(): void {
    this.counting = false;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private accept(socket: net.Socket): void {
    const upstream = net.connect(this.target);
    socket.setNoDelay(true);
    upstream.setNoDelay(true);
    let buffered: Buffer = Buffer.alloc(0);
    let startup = true;
    const parsed = new Map<string, string>();
    socket.on("data", (chunk) => {
      upstream.write(chunk);
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      for (;;) {
        if (startup) {
          if (buffered.length < 8) break;
          const length = buffered.readInt32BE(0);
          if (buffered.length < length) break;
          const code = buffered.readInt32BE(4);
          buffered = buffered.subarray(length);
          // SSLRequest / GSSENCRequest are followed by another startup packet.
          if (code !== 80877103 && code !== 80877104) startup = false;
          continue;
        }
        if (buffered.length < 5) break;
        const length = buffered.readInt32BE(1);
        if (buffered.length < length + 1) break;
        this.observe(String.fromCharCode(buffered[0]!), buffered.subarray(5, length + 1), parsed);
        buffered = buffered.subarray(length + 1);
      }
    });
    upstream.on("data", (chunk) => socket.write(chunk));
    const closeBoth = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on("close", closeBoth);
    upstream.on("close", closeBoth);
    socket.on("error", closeBoth);
    upstream.on("error", closeBoth);
  }

  /** `parsed`: this connection's statement texts by name ("" for the unnamed statement). */
  private observe(type: string, body: Buffer, parsed: Map<string, string>): void {
    const cString = (from: number) => body.subarray(from, body.indexOf(0, from)).toString("utf8");
    if (type === "P") {
      const name = cString(0);
      parsed.set(name, cString(Buffer.byteLength(name) + 1));
      return;
    }
    if (!this.counting) return;
    if (type === "S" || type === "Q") this.roundTrips += 1;
    let text: string | undefined;
    if (type === "Q") text = cString(0);
    else if (type === "B") {
      const portal = cString(0);
      text = parsed.get(cString(Buffer.byteLength(portal) + 1));
    }
    if (text !== undefined) {
      const key = text.replace(/\s+/g, " ").trim().slice(0, 160);
      this.statements.set(key, (this.statements.get(key) ?? 0) + 1);
    }
  }
}

/** Where PostgreSQL listens for `url`: TCP host and port, or a Unix socket (`?host=/socket/dir`). */
export function databaseTarget(url: string): net.NetConnectOpts {
  const parsed = new URL(url);
  const port = Number(parsed.port || 5432);
  const socketDir = parsed.searchParams.get("host");
  if (socketDir?.startsWith("/")) return { path: `${socketDir}/.s.PGSQL.${port}` };
  return { host: parsed.hostname || "127.0.0.1", port };
}

/** `url` pointed at 127.0.0.1:`port` over TCP (to route a server through the proxy). */
export function viaPort(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.searchParams.delete("host");
  parsed.hostname = "127.0.0.1";
  parsed.port = String(port);
  return parsed.toString();
}
