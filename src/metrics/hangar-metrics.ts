import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "../db/database.js";
import { runQueueStats } from "../db/sql/run-queue-stats.js";
import type { RunStatus } from "../domain/run.js";

/** Seconds: from a few milliseconds (an offline graph) to many minutes (a long agent run). */
const RUN_DURATION_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600];
/** Seconds a due run waits for a worker: milliseconds when idle, up to minutes when saturated. */
const WAIT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/**
 * Process metrics (memory, CPU, event-loop lag, GC, handles) describe the process, not one
 * running Hangar, and prom-client's collector starts an event-loop monitor and a GC observer it
 * never stops: collected once per process, into a registry of their own, merged into each scrape.
 */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** Something counted while it is open (a stream, a subscription): `open()` returns its close. */
export interface OpenCounter {
  open(): () => void;
}

/**
 * The process's Prometheus metrics (prom-client), one registry per running Hangar (tests run
 * several in one process). Everything on a hot path is a counter or histogram in memory: creating,
 * claiming and finishing a run add no query. Queue depth, the oldest pending run's wait and the
 * pool's connections are read when Prometheus scrapes (one indexed query, no per-run cost).
 * Counters are per process: Prometheus sums them across API and worker processes.
 */
export class HangarMetrics {
  readonly registry = new Registry();
  private readonly runsCreated: Counter<"graph">;
  private readonly runsStarted: Counter<"graph">;
  private readonly runsFinished: Counter<"graph" | "status">;
  private readonly runDuration: Histogram<"graph" | "status">;
  private readonly runTimeToStart: Histogram<"graph">;
  private readonly cronFirings: Counter<"outcome">;
  private readonly cronLag: Histogram;
  private readonly traceRunsIngested: Counter;
  readonly sseStreams: OpenCounter;
  readonly webSocketSubscriptions: OpenCounter;

  private readonly withProcessMetrics: boolean;

  constructor(options: { db?: Database; processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.withProcessMetrics = options.processMetrics !== false;
    this.runsCreated = new Counter({ name: "hangar_runs_created_total", help: "Runs queued (by API calls and cron firings)", labelNames: ["graph"], registers });
    this.runsStarted = new Counter({ name: "hangar_runs_started_total", help: "Run attempts a worker of this process started", labelNames: ["graph"], registers });
    this.runsFinished = new Counter({
      name: "hangar_runs_finished_total",
      help: "Runs a worker of this process finished, by final status",
      labelNames: ["graph", "status"],
      registers,
    });
    this.runDuration = new Histogram({
      name: "hangar_run_duration_seconds",
      help: "From a worker's claim to the recorded outcome",
      labelNames: ["graph", "status"],
      buckets: RUN_DURATION_BUCKETS,
      registers,
    });
    this.runTimeToStart = new Histogram({
      name: "hangar_run_time_to_start_seconds",
      help: "From when a run became due (created, or its after_seconds passed) to its first claim",
      labelNames: ["graph"],
      buckets: WAIT_BUCKETS,
      registers,
    });
    this.cronFirings = new Counter({
      name: "hangar_cron_firings_total",
      help: "Cron slots fired (outcome=fired queued a run; refused: its thread was busy, multitask_strategy reject)",
      labelNames: ["outcome"],
      registers,
    });
    this.cronLag = new Histogram({
      name: "hangar_cron_lag_seconds",
      help: "From a cron slot's due time to its firing",
      buckets: WAIT_BUCKETS,
      registers,
    });
    this.traceRunsIngested = new Counter({ name: "hangar_trace_runs_ingested_total", help: "Trace runs stored through /tracing (LangSmith ingestion)", registers });
    this.sseStreams = openCounter(new Gauge({ name: "hangar_sse_streams_active", help: "Open SSE run streams", registers }));
    this.webSocketSubscriptions = openCounter(
      new Gauge({ name: "hangar_websocket_subscriptions_active", help: "Open WebSocket subscriptions (graphql-ws and protocol v2)", registers }),
    );
    const db = options.db;
    if (db) this.registerDatabaseGauges(db);
  }

  runCreated(graphId: string): void {
    this.runsCreated.inc({ graph: graphId });
  }

  runsCreatedByCron(graphIds: readonly string[]): void {
    const counts = new Map<string, number>();
    for (const graph of graphIds) counts.set(graph, (counts.get(graph) ?? 0) + 1);
    for (const [graph, count] of counts) this.runsCreated.inc({ graph }, count);
  }

  /** A worker claimed a run; its first attempt also tells how long it waited. */
  runStarted(run: { kwargs: { graphId: string }; attempt: number; runAfter: Date; createdAt: Date }, now: Date): void {
    this.runsStarted.inc({ graph: run.kwargs.graphId });
    if (run.attempt === 1) {
      const dueAt = Math.max(run.runAfter.getTime(), run.createdAt.getTime());
      this.runTimeToStart.observe({ graph: run.kwargs.graphId }, Math.max(0, now.getTime() - dueAt) / 1000);
    }
  }

  runFinished(graphId: string, status: RunStatus | "rolled_back", durationSeconds: number): void {
    this.runsFinished.inc({ graph: graphId, status });
    this.runDuration.observe({ graph: graphId, status }, durationSeconds);
  }

  cronFired(outcome: "fired" | "refused", lagSeconds: number): void {
    this.cronFirings.inc({ outcome });
    this.cronLag.observe(Math.max(0, lagSeconds));
  }

  traceRunsStored(count: number): void {
    if (count > 0) this.traceRunsIngested.inc(count);
  }

  /** The exposition text (Prometheus' text format) and its content type. */
  async expose(): Promise<{ body: string; contentType: string }> {
    const registry = this.withProcessMetrics ? Registry.merge([processMetrics(), this.registry]) : this.registry;
    return { body: await registry.metrics(), contentType: registry.contentType };
  }

  private registerDatabaseGauges(db: Database): void {
    const registers = [this.registry];
    new Gauge({
      name: "hangar_db_pool_connections",
      help: "This process's database pool: state=in_use (checked out), idle, waiting (queries waiting for a connection)",
      labelNames: ["state"],
      registers,
      collect() {
        const { pool } = db;
        this.set({ state: "in_use" }, pool.totalCount - pool.idleCount);
        this.set({ state: "idle" }, pool.idleCount);
        this.set({ state: "waiting" }, pool.waitingCount);
      },
    });
    // Both queue gauges come from one query per scrape.
    let reading: Promise<{ depth: number; oldestWaitSeconds: number }> | null = null;
    let last = { depth: 0, oldestWaitSeconds: 0 };
    // With the database out of reach a scrape still answers (the readiness route reports the
    // outage): the queue gauges keep their last values.
    const readQueue = () => {
      reading ??= runQueueStats(db.dataSource.manager, new Date())
        .then((stats) => (last = stats), () => last)
        .finally(() => {
          reading = null;
        });
      return reading;
    };
    new Gauge({
      name: "hangar_run_queue_depth",
      help: "Pending runs that are due (delayed runs not counted), across all processes",
      registers,
      async collect() {
        this.set((await readQueue()).depth);
      },
    });
    new Gauge({
      name: "hangar_run_queue_oldest_wait_seconds",
      help: "How long the oldest due pending run has waited (0 when none waits)",
      registers,
      async collect() {
        this.set((await readQueue()).oldestWaitSeconds);
      },
    });
  }
}

function openCounter(gauge: Gauge): OpenCounter {
  return {
    open() {
      gauge.inc();
      let closed = false;
      return () => {
        if (closed) return;
        closed = true;
        gauge.dec();
      };
    },
  };
}
