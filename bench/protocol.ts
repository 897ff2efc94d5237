/**
 * Protocol v2 fan-out benchmark (issue 26): events per second delivered, server CPU per delivered
 * event and RSS, for LangGraph streaming protocol v2 over WebSocket against today's SSE thread
 * stream (GET /threads/{id}/stream), in the same server process and run:
 *
 * - one busy thread: BENCH_PROTOCOL_SUBSCRIBERS (100) subscribers of one thread, which runs
 *   BENCH_PROTOCOL_RUNS (10) runs of the `chatty` graph one after another, each writing
 *   BENCH_PROTOCOL_EVENTS (100) custom events;
 * - many threads: BENCH_PROTOCOL_THREADS (1000) sockets, each on its own thread, one run of
 *   BENCH_PROTOCOL_THREAD_EVENTS (20) custom events per thread, all started together.
 *
 * Runs are created with stream mode `custom` only, so both paths carry the same stored events;
 * protocol sockets subscribe to the `custom` channel. A phase ends when every subscriber has all
 * its custom events; CPU is the server process's over the phase. The machine may be shared: the
 * pairs alternate (BENCH_PROTOCOL_PAIRS busy-thread pairs, BENCH_PROTOCOL_THREAD_PAIRS
 * many-thread pairs), compare within a pair. BENCH_PROTOCOL_TRANSPORTS (default
 * `sse,protocol-ws`) keeps some transports only, e.g. to profile one.
 *
 * BENCH_BASELINE=<another checkout> (built and installed, e.g. a worktree of main; the older name
 * BENCH_PROTOCOL_BASELINE works too): its server runs beside this one, each on its own database,
 * and every phase runs on both, in turns (the `build` column; bench-kit's buildsUnderTest), so a
 * change is compared with its baseline in one run on a shared machine.
 *
 * Also, unless BENCH_PROTOCOL_SQL_SOCKETS is 0: SQL statements per subscriber (open, one run of
 * BENCH_PROTOCOL_THREAD_EVENTS events delivered), each on its own thread, counted by a proxy in
 * front of a second server. BENCH_CPU_PROF=1: a V8 CPU profile of the timed server, summarized
 * by self time.
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import {
  CpuMeter,
  RESULTS_DIR,
  RssSampler,
  SqlCountingProxy,
  busiestCpuProfile,
  buildsUnderTest,
  createBenchDatabase,
  databaseTarget,
  envInt,
  inTurn,
  printTable,
  repoState,
  round,
  startServerProcess,
  summarizeCpuProfile,
  viaPort,
  waitForQuietMachine,
  writeResults,
  type Build,
  type BuildUnderTest,
  type ResultRow,
  type ServerProcess,
} from "./bench-kit.js";

const CONFIG = "bench/protocol.langgraph.json";
const SUBSCRIBERS = envInt("BENCH_PROTOCOL_SUBSCRIBERS", 100);
const RUNS = envInt("BENCH_PROTOCOL_RUNS", 10);
const EVENTS = envInt("BENCH_PROTOCOL_EVENTS", 100);
const THREADS = envInt("BENCH_PROTOCOL_THREADS", 1000);
const THREAD_EVENTS = envInt("BENCH_PROTOCOL_THREAD_EVENTS", 20);
const PAIRS = envInt("BENCH_PROTOCOL_PAIRS", 2);
const THREAD_PAIRS = envInt("BENCH_PROTOCOL_THREAD_PAIRS", 1);
const SQL_SOCKETS = envInt("BENCH_PROTOCOL_SQL_SOCKETS", 20);
const CPU_PROFILE = process.env.BENCH_CPU_PROF === "1";

type Transport = "protocol-ws" | "sse";
const TRANSPORTS = (process.env.BENCH_PROTOCOL_TRANSPORTS ?? "sse,protocol-ws").split(",").filter((name): name is Transport => name === "sse" || name === "protocol-ws");

/** A subscriber counting the custom events it receives; `ready` once it is attached. */
interface Subscriber {
  ready: Promise<void>;
  received(): number;
  close(): void;
}

function protocolSubscriber(server: ServerProcess, threadId: string): Subscriber {
  const socket = new WebSocket(`${server.url.replace("http", "ws")}/threads/${threadId}/stream/events`);
  let count = 0;
  const ready = new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.once("open", () => socket.send(JSON.stringify({ id: 1, method: "subscription.subscribe", params: { channels: ["custom"] } })));
    socket.on("message", (data) => {
      const text = data.toString();
      // Counting without parsing every frame: the client's CPU is not what is measured.
      if (text.startsWith('{"type":"event","method":"custom"')) count++;
      else if (text.includes('"type":"success"')) resolve();
      else if (text.includes('"type":"error"')) reject(new Error(text));
    });
  });
  return { ready, received: () => count, close: () => socket.close() };
}

function sseSubscriber(server: ServerProcess, threadId: string): Subscriber {
  const abort = new AbortController();
  let count = 0;
  let resolveReady = () => {};
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));
  void (async () => {
    const response = await fetch(`${server.url}/threads/${threadId}/stream`, { signal: abort.signal, headers: { accept: "text/event-stream" } });
    resolveReady();
    const decoder = new TextDecoder();
    let carry = "";
    try {
      for await (const chunk of response.body!) {
        const text = carry + decoder.decode(chunk as Uint8Array, { stream: true });
        const lines = text.split("\n");
        carry = lines.pop() ?? "";
        for (const line of lines) if (line === "event: custom") count++;
      }
    } catch {
      // aborted at the end of the phase
    }
  })();
  return { ready, received: () => count, close: () => abort.abort() };
}

async function untilDelivered(subscribers: Subscriber[], expected: number, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (subscribers.some((subscriber) => subscriber.received() < expected)) {
    if (performance.now() > deadline) {
      const short = subscribers.filter((subscriber) => subscriber.received() < expected).length;
      throw new Error(`${short} subscribers still short of ${expected} events after ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function phase(server: ServerProcess, database: string, name: string, transport: Transport, body: () => Promise<{ subscribers: Subscriber[]; expected: number; start: () => Promise<void> }>): Promise<ResultRow> {
  await waitForQuietMachine();
  const { subscribers, expected, start } = await body();
  await Promise.all(subscribers.map((subscriber) => subscriber.ready));
  const rss = new RssSampler(server);
  rss.start();
  const rssBefore = server.rssMb() ?? 0;
  const cpu = await CpuMeter.start(server, database);
  const serverCpuStart = server.cpuMs();
  const began = performance.now();
  await start();
  await untilDelivered(subscribers, expected, 600_000);
  const seconds = (performance.now() - began) / 1000;
  const delivered = subscribers.reduce((sum, subscriber) => sum + subscriber.received(), 0);
  const serverCpuMs = server.cpuMs() - serverCpuStart;
  const usage = await cpu.stop(delivered);
  const memory = rss.stop();
  for (const subscriber of subscribers) subscriber.close();
  return {
    scenario: name,
    transport,
    subscribers: subscribers.length,
    delivered_events: delivered,
    events_per_s: Math.round(delivered / seconds),
    server_cpu_us_per_event: round((serverCpuMs * 1000) / delivered, 1),
    postgres_cpu_us_per_event: round(usage.postgres_cpu_ms_per_op * 1000, 1),
    server_cpu_cores: usage.server_cpu_cores,
    rss_before_mb: round(rssBefore, 0),
    rss_max_mb: round(memory.rss_max_mb, 0),
    seconds: round(seconds, 2),
    machine_busy_pct: usage.machine_busy_pct,
  };
}

const subscriberOf = (transport: Transport) => (transport === "sse" ? sseSubscriber : protocolSubscriber);

/** Threads for the many-threads phases, created 50 at a time. */
async function createThreads(client: ReturnType<ServerProcess["client"]>, count: number): Promise<Array<{ thread_id: string }>> {
  const threads: Array<{ thread_id: string }> = [];
  for (let index = 0; index < count; index += 50) threads.push(...(await Promise.all(Array.from({ length: Math.min(50, count - index) }, () => client.threads.create()))));
  return threads;
}

/** One run of THREAD_EVENTS custom events on each thread, started 50 at a time. */
async function startThreadRuns(client: ReturnType<ServerProcess["client"]>, threads: Array<{ thread_id: string }>): Promise<void> {
  for (let index = 0; index < threads.length; index += 50) {
    await Promise.all(threads.slice(index, index + 50).map((thread) => client.runs.create(thread.thread_id, "chatty", { input: { done: 0 }, context: { events: THREAD_EVENTS } as never, streamMode: ["custom"] })));
  }
}

/** A server under test: this checkout's, or the baseline's (BENCH_BASELINE). */
interface Target {
  build: Build;
  server: ServerProcess;
  database: Awaited<ReturnType<typeof createBenchDatabase>>;
  client: ReturnType<ServerProcess["client"]>;
}

async function startTarget({ build, repoRoot }: BuildUnderTest, stamp: string, profileDir: string | undefined): Promise<Target> {
  const database = await createBenchDatabase(build === "this" ? "protocol" : "protocol_baseline");
  const server = await startServerProcess({
    configPath: CONFIG,
    databaseUrl: database.url,
    logPath: path.join(RESULTS_DIR, `protocol-server-${build}-${stamp}.log`),
    cpuProfDir: build === "this" ? profileDir : undefined,
    repoRoot,
  });
  const client = server.client(64);
  // Warm-up: the graph loaded, both paths' code run once.
  const warm = await client.threads.create();
  await client.runs.wait(warm.thread_id, "chatty", { input: { done: 0 }, context: { events: 10 } } as never);
  return { build, server, database, client };
}

export async function protocolSuite(stamp: string): Promise<void> {
  const profileDir = CPU_PROFILE ? path.join(RESULTS_DIR, `protocol-${stamp}-cpuprof`) : undefined;
  const targets: Target[] = [];
  const rows: ResultRow[] = [];
  let sql: SqlRow[] = [];
  const builds = buildsUnderTest();
  try {
    // Each pair in turn starts with the other build (inTurn), so a drift of the machine's load
    // spreads evenly over both.
    for (const build of builds) targets.push(await startTarget(build, stamp, build.build === "this" ? profileDir : undefined));
    // And with the other transport: PostgreSQL's CPU per event grows with each phase on the same
    // database (300 threads: 380, 600, 630, 800 µs in phase order, whatever the transport), so
    // a transport always run second looked twice as costly for PostgreSQL.

    for (let pair = 0; pair < PAIRS; pair++) {
      for (const transport of inTurn(TRANSPORTS, pair)) {
        for (const { build, server, database, client } of inTurn(targets, pair)) {
          rows.push({
            build,
            ...(await phase(server, database.name, "one busy thread", transport, async () => {
              const thread = await client.threads.create();
              const subscribers = Array.from({ length: SUBSCRIBERS }, () => subscriberOf(transport)(server, thread.thread_id));
              return {
                subscribers,
                expected: RUNS * EVENTS,
                start: async () => {
                  for (let run = 0; run < RUNS; run++) {
                    await client.runs.create(thread.thread_id, "chatty", { input: { done: 0 }, context: { events: EVENTS } as never, streamMode: ["custom"], multitaskStrategy: "enqueue" });
                  }
                },
              };
            })),
          });
          console.log(JSON.stringify(rows.at(-1)));
        }
      }
    }
    for (let pair = 0; pair < THREAD_PAIRS; pair++) {
      for (const transport of inTurn(TRANSPORTS, pair)) {
        for (const { build, server, database, client } of inTurn(targets, pair)) {
          rows.push({
            build,
            ...(await phase(server, database.name, `${THREADS} threads`, transport, async () => {
              const threads = await createThreads(client, THREADS);
              const subscribers: Subscriber[] = [];
              for (let index = 0; index < threads.length; index += 100) {
                const batch = threads.slice(index, index + 100).map((thread) => subscriberOf(transport)(server, thread.thread_id));
                await Promise.all(batch.map((subscriber) => subscriber.ready));
                subscribers.push(...batch);
              }
              return { subscribers, expected: THREAD_EVENTS, start: () => startThreadRuns(client, threads) };
            })),
          });
          console.log(JSON.stringify(rows.at(-1)));
        }
      }
    }
    for (const target of targets) await target.server.stop();
    if (SQL_SOCKETS > 0) sql = await sqlPerSubscriber(targets[0]!.database.url, path.join(RESULTS_DIR, `protocol-sql-server-${stamp}.log`));
  } finally {
    for (const target of targets) {
      await target.server.stop();
      await target.database.drop();
    }
  }
  printTable("protocol v2 (WebSocket) vs SSE thread stream: delivered custom events", rows, [
    "build",
    "transport",
    "subscribers",
    "delivered_events",
    "events_per_s",
    "server_cpu_us_per_event",
    "postgres_cpu_us_per_event",
    "server_cpu_cores",
    "rss_before_mb",
    "rss_max_mb",
    "seconds",
    "machine_busy_pct",
  ]);
  for (const row of sql) {
    console.log(`\nSQL per subscriber, ${row.transport}: ${row.statements_per_subscriber} statements, ${row.round_trips_per_subscriber} round trips`);
    for (const statement of row.statements.slice(0, 12)) console.log(`  ${statement.per_subscriber}  ${statement.sql}`);
  }
  let cpuProfile: unknown;
  const profile = profileDir ? busiestCpuProfile(profileDir) : null;
  if (profile) {
    const summary = summarizeCpuProfile(profile, 40);
    cpuProfile = { file: profile, ...summary };
    const table = (list: typeof summary.by_package) => list.map((row) => ({ scenario: row.name, ms: row.self_ms, pct: row.pct }));
    printTable(`Server CPU profile (${summary.busy_ms} ms busy, start-up included): self time by package`, table(summary.by_package), ["ms", "pct"]);
    printTable("Server CPU profile: self time by function", table(summary.by_function), ["ms", "pct"]);
    printTable("Server CPU profile: inclusive time of the repository's functions", table(summary.repo_inclusive), ["ms", "pct"]);
  }
  const file = writeResults("protocol", stamp, {
    repo: repoState(),
    settings: { SUBSCRIBERS, RUNS, EVENTS, THREADS, THREAD_EVENTS, PAIRS, THREAD_PAIRS, TRANSPORTS, SQL_SOCKETS, BASELINE: builds.find((build) => build.build === "baseline")?.repoRoot ?? null },
    rows,
    sql,
    cpu_profile: cpuProfile,
  });
  console.log(`results: ${file}`);
}

interface SqlRow {
  transport: Transport;
  statements_per_subscriber: number;
  round_trips_per_subscriber: number;
  statements: Array<{ per_subscriber: number; sql: string }>;
}

/**
 * SQL per subscriber on its own thread, for each transport: what opening it costs and what
 * delivering one run of THREAD_EVENTS events to it costs (the run's own statements included,
 * the same for both transports), through a counting proxy in front of a second server.
 */
async function sqlPerSubscriber(databaseUrl: string, logPath: string): Promise<SqlRow[]> {
  const proxy = new SqlCountingProxy(databaseTarget(databaseUrl));
  const port = await proxy.listen();
  const server = await startServerProcess({ configPath: CONFIG, databaseUrl: viaPort(databaseUrl, port), logPath });
  const client = server.client(16);
  const rows: SqlRow[] = [];
  try {
    for (const transport of TRANSPORTS) {
      const threads = await createThreads(client, SQL_SOCKETS);
      proxy.reset();
      const subscribers = threads.map((thread) => subscriberOf(transport)(server, thread.thread_id));
      await Promise.all(subscribers.map((subscriber) => subscriber.ready));
      await startThreadRuns(client, threads);
      await untilDelivered(subscribers, THREAD_EVENTS, 120_000);
      proxy.pause();
      for (const subscriber of subscribers) subscriber.close();
      const total = [...proxy.statements.values()].reduce((sum, calls) => sum + calls, 0);
      rows.push({
        transport,
        statements_per_subscriber: round(total / SQL_SOCKETS, 2),
        round_trips_per_subscriber: round(proxy.roundTrips / SQL_SOCKETS, 2),
        statements: [...proxy.statements.entries()].sort((a, b) => b[1] - a[1]).map(([text, calls]) => ({ per_subscriber: round(calls / SQL_SOCKETS, 2), sql: text })),
      });
    }
  } finally {
    await server.stop();
    await proxy.close();
  }
  return rows;
}
