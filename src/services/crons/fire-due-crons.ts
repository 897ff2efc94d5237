import { performance } from "node:perf_hooks";
import type { EntityManager } from "typeorm";
import { nextRunAfter } from "../../domain/next-run.js";
import { advanceCrons } from "../../db/sql/advance-crons.js";
import { claimDueCrons, type DueCron } from "../../db/sql/claim-due-crons.js";
import { enqueueCronRuns } from "../../db/sql/enqueue-cron-runs.js";
import type { RunToEnqueue } from "../../db/sql/enqueue-rows.js";
import { nextCronDueAt } from "../../db/sql/next-cron-due-at.js";
import { withTransaction } from "../../db/tx.js";
import { cronRunMetadata, type Cron } from "../../domain/cron.js";
import { newId } from "../../domain/ids.js";
import { composeRun, type Run } from "../../domain/run.js";
import type { HangarMetrics } from "../../metrics/hangar-metrics.js";
import { cancelEffectsOnThread, type CancelEffects } from "../run-lifecycle/cancel-run.js";
import { openCrons, sealRuns, type StoredRunFields } from "../field-encryption.js";
import type { ServiceContext } from "../service-context.js";

/**
 * Batches fired at once on PostgreSQL, each in its own transaction on its own connection of the
 * process's pool (HANGAR_DB_POOL_SIZE, 24 by default). Two measured best on a 2-core machine:
 * 10,000 stateless firings took 640 ms against 840 ms with one (and 820 ms with 500-cron
 * batches); the runs INSERT (its trigger and indexes) is most of the time. The embedded database
 * is a single connection, so it fires one batch at a time.
 */
const POSTGRES_FIRING_CONCURRENCY = 2;

/** What a tick changed that the process's run streaming must hear (worker wake-ups, ended runs). */
export interface FiringEffects {
  /** When the earliest queued run becomes due; null when no run was queued. */
  firstRunAfter: Date | null;
  /** Runs stopped by thread crons whose multitask strategy is interrupt or rollback. */
  cancellations: CancelEffects[];
}

export interface CronTick {
  /** Firings that queued a run. */
  fired: number;
  /** Firings a busy thread refused (multitask strategy reject): the slot passes without a run. */
  refused: number;
  /** Due crons left for the next tick because another transaction held their thread. */
  deferred: number;
  batches: number;
  durationMs: number;
  /** The earliest slot still to fire (possibly already due when some were deferred). */
  nextDueAt: Date | null;
  /**
   * Crons were due that this tick could not take: deferred ones, or ones another scheduler is
   * firing right now (locked, so skipped). Tick again shortly rather than at once, which would
   * spin on those locks for as long as the other tick lasts (~1 s for 10,000 crons).
   */
  retrySoon: boolean;
  effects: FiringEffects;
}

interface BatchOutcome {
  claimed: number;
  fired: number;
  refused: number;
  deferred: number;
  firstRunAfter: Date | null;
  cancellations: CancelEffects[];
  /** For metrics once committed: each firing's graph (null: refused) and how late it fired. */
  firings: Array<{ graphId: string | null; lagSeconds: number }>;
}

/**
 * Fires every due cron, `batchSize` per transaction. Each transaction claims its crons, queues
 * their runs (and the new threads of stateless crons) and moves them to their next slot, so a
 * crash loses no firing and duplicates none: uncommitted, the slots are still due.
 *
 * Catch-up rule: a cron's next slot is the first one after *now*, not after the slot it fired, so
 * however many slots passed while no scheduler ran, a cron fires once on start-up, not in a burst.
 */
export async function fireDueCrons(ctx: ServiceContext, options: { batchSize: number }): Promise<CronTick> {
  const started = performance.now();
  const tick: CronTick = {
    fired: 0,
    refused: 0,
    deferred: 0,
    batches: 0,
    durationMs: 0,
    nextDueAt: null,
    retrySoon: false,
    effects: { firstRunAfter: null, cancellations: [] },
  };
  const firstClaimAt = ctx.now();
  // Several loops claim in parallel (SKIP LOCKED keeps their batches disjoint), each on its own
  // connection; each stops at a short batch, which means nothing else was due (deferred crons
  // wait for the next tick).
  const loop = async () => {
    for (;;) {
      const batch = await withTransaction(ctx.db, (manager) => fireBatch(ctx, manager, ctx.now(), options.batchSize));
      tick.batches++;
      tick.fired += batch.fired;
      tick.refused += batch.refused;
      tick.deferred += batch.deferred;
      tick.effects.cancellations.push(...batch.cancellations);
      tick.effects.firstRunAfter = earliest(tick.effects.firstRunAfter, batch.firstRunAfter);
      if (ctx.metrics) countFirings(ctx.metrics, batch.firings);
      if (batch.claimed < options.batchSize || batch.claimed === batch.deferred) return;
    }
  };
  const concurrency = ctx.db.kind === "postgres" ? POSTGRES_FIRING_CONCURRENCY : 1;
  await Promise.all(Array.from({ length: concurrency }, loop));
  tick.nextDueAt = await nextCronDueAt(ctx.db.dataSource.manager);
  // A slot that came due after the first claim is simply next; one due before it and not taken
  // by any batch of this tick is held by someone else.
  const claimedNone = tick.fired + tick.refused + tick.deferred === 0;
  const heldElsewhere = claimedNone && tick.nextDueAt !== null && tick.nextDueAt <= firstClaimAt;
  tick.retrySoon = tick.deferred > 0 || heldElsewhere;
  tick.durationMs = performance.now() - started;
  return tick;
}

async function fireBatch(ctx: ServiceContext, manager: EntityManager, now: Date, limit: number): Promise<BatchOutcome> {
  const log = ctx.log;
  const outcome: BatchOutcome = { claimed: 0, fired: 0, refused: 0, deferred: 0, firstRunAfter: null, cancellations: [], firings: [] };
  const claimed = await claimDueCrons(manager, { now, limit });
  outcome.claimed = claimed.length;
  if (claimed.length === 0) return outcome;
  // Payload and metadata opened: a firing runs what the cron was created with.
  const opened = await openCrons(ctx, claimed.map((item) => item.cron));
  const due = claimed.map((item, index) => ({ ...item, cron: opened[index]! }));

  // The enqueue statement applies the multitask rule, as for every run (db/sql/enqueue-runs.ts),
  // and records each firing that queued a run or was refused (cron_firings). The runs (and the
  // threads created for them) are sealed with each cron's encryption context, its creator's.
  const runs = due.map((item) => composeCronRun(item, item.cron.threadId ?? newId(), now));
  const stored = await sealRuns(ctx, runs.map((run, index) => ({ run, storedContext: due[index]!.cron.encryptionContext })));
  const entries = due.map((item, index) => cronRunToEnqueue(item, runs[index]!, stored[index]!));
  const queued = await enqueueCronRuns(manager, entries, now);
  const nextSlots = new Map<string, Date | null>();
  const advances: Array<{ cronId: string; nextRunDate: Date | null }> = [];
  due.forEach(({ cron, assistant }, index) => {
    const result = queued[index]!;
    // Held by another transaction (or deleted with its crons meanwhile): still due, next tick.
    if (result.outcome === "thread-locked" || result.outcome === "thread-missing") {
      outcome.deferred++;
      return;
    }
    advances.push({ cronId: cron.cronId, nextRunDate: nextSlotOf(cron, now, nextSlots) });
    const lagSeconds = cron.nextRunDate === null ? 0 : (now.getTime() - cron.nextRunDate.getTime()) / 1000;
    if (result.outcome === "busy") {
      outcome.refused++;
      outcome.firings.push({ graphId: null, lagSeconds });
      log.info({ cronId: cron.cronId, threadId: cron.threadId }, "cron firing skipped: its thread is busy (multitask_strategy reject)");
      return;
    }
    if (result.outcome !== "created") throw new Error(`cron ${cron.cronId} fired no run: ${result.outcome}`);
    outcome.fired++;
    outcome.firings.push({ graphId: assistant.graphId, lagSeconds });
    const { endedRunIds, signalledRunIds } = result.cancelled;
    if (endedRunIds.length + signalledRunIds.length > 0) outcome.cancellations.push(cancelEffectsOnThread(cron.threadId!, result.cancelled));
  });
  await advanceCrons(manager, advances);
  outcome.firstRunAfter = outcome.fired > 0 ? now : null;
  return outcome;
}

/**
 * A firing's run, as createRun would queue the cron's stored request: on the cron's thread, or on
 * a new thread of its own (stateless crons), whose metadata names the cron. The cron's thread is
 * skipped when locked elsewhere: this transaction holds cron row locks, and thread deletion locks
 * the thread before it waits for its crons (ON DELETE CASCADE), so waiting could deadlock.
 */
function cronRunToEnqueue({ cron, assistant }: DueCron, run: Run, stored: StoredRunFields): RunToEnqueue {
  const threadMetadata = { graph_id: assistant.graphId, assistant_id: cron.assistantId };
  const isStateless = cron.threadId === null;
  return {
    run,
    stored,
    cronId: cron.cronId,
    thread: {
      metadata: isStateless ? { ...threadMetadata, cron_id: cron.cronId } : threadMetadata,
      createIfMissing: isStateless,
      skipLockedThread: true,
    },
    assistantSeen: null,
  };
}

function countFirings(metrics: HangarMetrics, firings: BatchOutcome["firings"]): void {
  for (const { graphId, lagSeconds } of firings) metrics.cronFired(graphId === null ? "refused" : "fired", lagSeconds);
  metrics.runsCreatedByCron(firings.flatMap(({ graphId }) => (graphId === null ? [] : [graphId])));
}

/** The first slot after now (see the catch-up rule), or null once past end_time. Memoized per batch: crons share schedules. */
function nextSlotOf(cron: Cron, now: Date, memo: Map<string, Date | null>): Date | null {
  const key = `${cron.timezone} ${cron.schedule}`;
  let next = memo.get(key);
  if (next === undefined) {
    next = nextRunAfter(cron.schedule, cron.timezone, now);
    memo.set(key, next);
  }
  return next !== null && cron.endTime !== null && next > cron.endTime ? null : next;
}

/** The run a firing queues: what createRun makes of the cron's stored payload. */
function composeCronRun({ cron, assistant }: DueCron, threadId: string, now: Date): Run {
  return composeRun({
    assistant: { ...assistant, assistantId: cron.assistantId },
    request: cron.payload,
    threadId,
    metadata: cronRunMetadata(cron),
    // The run engine deletes a stateless run's thread after the run unless told to keep it.
    onCompletion: cron.threadId === null ? (cron.onRunCompleted ?? "delete") : null,
    now,
    runAfter: now,
  });
}

function earliest(a: Date | null, b: Date | null): Date | null {
  if (a === null) return b;
  if (b === null) return a;
  return a <= b ? a : b;
}
