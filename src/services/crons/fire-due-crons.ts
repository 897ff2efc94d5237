import { performance } from "node:perf_hooks";
import type { EntityManager } from "typeorm";
import { nextRunAfter } from "../../domain/next-run.js";
import { advanceCrons } from "../../db/sql/advance-crons.js";
import { claimDueCrons, type DueCron } from "../../db/sql/claim-due-crons.js";
import { insertCronRuns } from "../../db/sql/insert-cron-runs.js";
import { insertRefusedFirings } from "../../db/sql/cron-firings.js";
import { insertCronThreads } from "../../db/sql/insert-cron-threads.js";
import { lockActiveRuns } from "../../db/sql/lock-active-runs.js";
import { lockCronThreads } from "../../db/sql/lock-cron-threads.js";
import { markThreadsRunning } from "../../db/sql/mark-threads-running.js";
import { nextCronDueAt } from "../../db/sql/next-cron-due-at.js";
import { withTransaction } from "../../db/tx.js";
import { cronRunMetadata, type Cron } from "../../domain/cron.js";
import { newId } from "../../domain/ids.js";
import { composeRun, onBusyThread, type Run } from "../../domain/run.js";
import type { Logger } from "../../logger.js";
import type { HangarMetrics } from "../../metrics/hangar-metrics.js";
import { cancelLocked, type CancelEffects } from "../run-lifecycle/cancel-run.js";
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
      const batch = await withTransaction(ctx.db, (manager) => fireBatch(manager, ctx.now(), options.batchSize, ctx.log));
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

async function fireBatch(manager: EntityManager, now: Date, limit: number, log: Logger): Promise<BatchOutcome> {
  const outcome: BatchOutcome = { claimed: 0, fired: 0, refused: 0, deferred: 0, firstRunAfter: null, cancellations: [], firings: [] };
  const due = await claimDueCrons(manager, { now, limit });
  outcome.claimed = due.length;
  if (due.length === 0) return outcome;

  const threadIds = [...new Set(due.flatMap((item) => (item.cron.threadId ? [item.cron.threadId] : [])))];
  const lockedThreads = new Set(threadIds.length > 0 ? await lockCronThreads(manager, threadIds) : []);
  const nextSlots = new Map<string, Date | null>();
  const advances: Array<{ cronId: string; nextRunDate: Date | null }> = [];
  const newThreads: Array<{ threadId: string; metadata: Record<string, string> }> = [];
  const busyThreads: Array<{ threadId: string; metadata: Record<string, string> }> = [];
  const refusals: Array<{ firingId: string; cronId: string; threadId: string }> = [];
  const runs: Array<{ run: Run; cronId: string }> = [];

  for (const item of due) {
    const { cron, assistant } = item;
    if (cron.threadId !== null && !lockedThreads.has(cron.threadId)) {
      outcome.deferred++;
      continue;
    }
    advances.push({ cronId: cron.cronId, nextRunDate: nextSlotOf(cron, now, nextSlots) });
    const lagSeconds = cron.nextRunDate === null ? 0 : (now.getTime() - cron.nextRunDate.getTime()) / 1000;
    const threadMetadata = { graph_id: assistant.graphId, assistant_id: cron.assistantId };
    if (cron.threadId === null) {
      const run = composeCronRun(item, newId(), now);
      newThreads.push({ threadId: run.threadId, metadata: { ...threadMetadata, cron_id: cron.cronId } });
      runs.push({ run, cronId: cron.cronId });
      outcome.firings.push({ graphId: assistant.graphId, lagSeconds });
      continue;
    }
    const action = onBusyThread(cron.payload.multitaskStrategy);
    // The rules createRun applies (run-lifecycle/create-run.ts), under the thread lock taken above.
    const active = action === "queue" ? [] : await lockActiveRuns(manager, cron.threadId);
    if (active.length > 0 && action === "refuse") {
      outcome.refused++;
      refusals.push({ firingId: newId(), cronId: cron.cronId, threadId: cron.threadId });
      outcome.firings.push({ graphId: null, lagSeconds });
      log.info({ cronId: cron.cronId, threadId: cron.threadId }, "cron firing skipped: its thread is busy (multitask_strategy reject)");
      continue;
    }
    if (active.length > 0 && (action === "interrupt" || action === "rollback")) {
      outcome.cancellations.push(await cancelLocked(manager, active, action, now));
    }
    runs.push({ run: composeCronRun(item, cron.threadId, now), cronId: cron.cronId });
    outcome.firings.push({ graphId: assistant.graphId, lagSeconds });
    busyThreads.push({ threadId: cron.threadId, metadata: threadMetadata });
  }

  await insertCronThreads(manager, newThreads, now);
  await insertCronRuns(manager, runs);
  await markThreadsRunning(manager, busyThreads, now);
  await insertRefusedFirings(manager, refusals, now);
  await advanceCrons(manager, advances);
  outcome.fired = runs.length;
  outcome.firstRunAfter = runs.length > 0 ? now : null;
  return outcome;
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
