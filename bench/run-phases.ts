/**
 * The run engine benchmark's phases (bench/runs.ts runs them on each build under test): create→join
 * runs at a concurrency or a paced rate, streamed runs, and SQL accounting through a counting proxy.
 */
import { performance } from "node:perf_hooks";
import type { Client } from "@langchain/langgraph-sdk";
import {
  CpuMeter,
  EventLoopLag,
  clusterWalSyncs,
  RssSampler,
  SqlCountingProxy,
  databaseTarget,
  percentiles,
  round,
  runLoops,
  runPaced,
  startServerProcess,
  viaPort,
  waitForQuietMachine,
  wallMs,
  type ServerProcess,
} from "./bench-kit.js";

export const CONFIG = "bench/langgraph.json";
export const GRAPH = "echo";

const input = (i: number) => ({ messages: [{ role: "user", content: `bench ${i}` }] });

/** A server under test, a client on it, and its database's name (for PostgreSQL CPU accounting). */
export interface Timed {
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
export async function backgroundRuns({ server, client, database }: Timed, count: number, concurrency: number, pacedRate?: number) {
  const threads = await createThreads(client, count);
  const machine = await waitForQuietMachine();
  const createMs: number[] = [];
  const totalMs: number[] = [];
  const joined: Array<{ threadId: string; runId: string; joinReturnedAt: number }> = [];
  const failures = failureRecorder();
  const rss = new RssSampler(server);
  const cpu = await CpuMeter.start(server, database);
  const lag = await EventLoopLag.start(server);
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
  const resources = { ...rss.stop(), ...(await cpu.stop(count)), ...(await lag.stop()) };

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
export async function streamedRuns({ server, client, database }: Timed, count: number, concurrency: number) {
  const threads = await createThreads(client, count);
  const machine = await waitForQuietMachine();
  const firstMs: number[] = [];
  const lastMs: number[] = [];
  let notMetadataFirst = 0;
  let withoutValues = 0;
  const failures = failureRecorder();
  const rss = new RssSampler(server);
  const cpu = await CpuMeter.start(server, database);
  const lag = await EventLoopLag.start(server);
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
    resources: { ...rss.stop(), ...(await cpu.stop(count)), ...(await lag.stop()) },
    machine_before: machine,
  };
}

/** Round trips and statements per run, counted by a proxy in front of a second server. */
export async function sqlAccounting(databaseUrl: string, logPath: string, count: number) {
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

    // WAL syncs per run: each commit that waits for the flush costs one, unless it shares it.
    let walSyncs = await clusterWalSyncs();
    const walSyncsPerRun = async () => {
      const before = walSyncs;
      walSyncs = await clusterWalSyncs();
      return round((walSyncs - before) / count, 2);
    };

    proxy.reset();
    for (let i = 0; i < count; i++) {
      const run = await client.runs.create(threads[i]!, GRAPH, { input: input(i) });
      await client.runs.join(threads[i]!, run.run_id);
    }
    await new Promise((resolve) => setTimeout(resolve, 100)); // let the event flush land
    const createJoin = snapshot("create+join (per run)", count);
    proxy.pause();
    const createJoinWalSyncs = await walSyncsPerRun();

    proxy.reset();
    for (let i = 0; i < count; i++) {
      for await (const _ of client.runs.stream(threads[count + i]!, GRAPH, { input: input(i), streamMode: "values" })) {
        // drain
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stream = snapshot("stream (per run)", count);
    proxy.pause();
    return {
      idle,
      create_join: { ...createJoin, wal_syncs_per_op: createJoinWalSyncs },
      stream: { ...stream, wal_syncs_per_op: await walSyncsPerRun() },
    };
  } finally {
    await server.stop();
    await proxy.close();
  }
}

