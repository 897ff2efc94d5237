import { randomUUID } from "node:crypto";
import { claimRuns, type ClaimedRuns } from "../db/sql/claim-runs.js";
import { nextRunDueAt } from "../db/sql/next-run-due-at.js";
import { renewRunLeases } from "../db/sql/renew-run-leases.js";
import { requeueExpiredRuns } from "../db/sql/requeue-expired-runs.js";
import { selectRuns } from "../db/sql/select-runs.js";
import { coerceError } from "../domain/errors.js";
import { RUN_LEASE_MS, type Run } from "../domain/run.js";
import type { ServiceContext } from "../services/service-context.js";
import type { AbortReason } from "../services/run-lifecycle/execute-run.js";
import { attemptRun } from "../services/run-lifecycle/run-attempt.js";
import type { TraceRecorder } from "../services/traces/trace-recorder.js";

export interface RunWorkerOptions {
  /** Runs executed at the same time by this process. */
  concurrency: number;
  leaseMs?: number;
  /** Safety net only (lost notifications, expired leases); wake-ups come from RunSignals. */
  fallbackPollMs?: number;
  /** Records each run's trace (graph run, nodes, model calls) in the trace store. */
  tracing?: TraceRecorder;
}

interface ActiveRun {
  run: Run;
  controller: AbortController;
  done: Promise<void>;
}

const UNIQUE_VIOLATION = "23505";
const DEFAULT_FALLBACK_POLL_MS = 5_000;

/**
 * The run executor of one process: claiming and leases only, as graphile-worker's worker. It
 * claims pending runs when woken (NOTIFY or in-process signal), runs up to `concurrency` at once
 * through the run lifecycle (attemptRun: execute, settle, release; docs/run-lifecycle.md), renews
 * their leases, aborts them on cancel, and on stop hands unfinished ones back to the queue.
 * Whoever claims a run settles it: every claimed run passes through attemptRun exactly once.
 */
export class RunWorker {
  readonly workerId = `worker-${randomUUID()}`;
  private readonly active = new Map<string, ActiveRun>();
  private readonly leaseMs: number;
  private claiming = false;
  private claimAgain = false;
  /**
   * The last claim filled every free slot (or found none free), so runs may be waiting: a slot
   * that frees up then claims again. Otherwise a finished run wakes nobody, except when its thread
   * has queued runs: every other new run announces itself.
   */
  private queueMayHaveMore = true;
  private wakeScheduled = false;
  private stopping = false;
  private timers: NodeJS.Timeout[] = [];
  private dueTimer: NodeJS.Timeout | null = null;
  private nextDueAt: Date | null = null;
  private unsubscribe: () => void = () => undefined;
  /** When a claim loop last completed without error (readiness: a stuck or failing loop shows). */
  private lastClaimLoopAt: Date | null = null;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly options: RunWorkerOptions,
  ) {
    this.leaseMs = options.leaseMs ?? RUN_LEASE_MS;
  }

  start(): void {
    this.unsubscribe = this.ctx.streaming.signals.onPending((dueAt) => {
      if (dueAt && dueAt.getTime() > Date.now()) this.wakeAt(dueAt);
      else this.wake();
    });
    const renewEvery = Math.max(50, Math.floor(this.leaseMs / 3));
    this.timers.push(setInterval(() => void this.maintainLeases(), renewEvery));
    this.timers.push(setInterval(() => this.wakeAndCheckDelayed(), this.options.fallbackPollMs ?? DEFAULT_FALLBACK_POLL_MS));
    for (const timer of this.timers) timer.unref();
    this.wakeAndCheckDelayed();
  }

  get activeRunCount(): number {
    return this.active.size;
  }

  /** For readiness: the last completed claim loop; loops run at least every safety poll. */
  claimLoopHealth(): { lastAt: Date | null; maxAgeMs: number } {
    return { lastAt: this.lastClaimLoopAt, maxAgeMs: 3 * (this.options.fallbackPollMs ?? DEFAULT_FALLBACK_POLL_MS) };
  }

  /** Asks a running run of this worker to stop (after a cancel signal: reads the action asked). */
  async checkCancellation(runId: string): Promise<void> {
    const active = this.active.get(runId);
    if (!active) return;
    const [run] = await selectRuns(this.ctx.db.dataSource.manager, [runId]);
    // Gone: deleted with its thread. Nothing is left to record, so stop as if the lease were lost.
    if (!run) this.abort(runId, "lease-lost");
    else if (run.cancelAction) this.abort(runId, run.cancelAction);
  }

  /**
   * Graceful stop: no new claims; running runs get until the deadline to finish, then are aborted
   * and handed back to the queue (to resume after restart or on another process).
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    this.unsubscribe();
    for (const timer of this.timers) clearInterval(timer);
    if (this.dueTimer) clearTimeout(this.dueTimer);
    const allDone = () => Promise.all([...this.active.values()].map((active) => active.done));
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([allDone(), deadline]);
    for (const runId of this.active.keys()) this.abort(runId, "shutdown");
    await allDone();
  }

  /**
   * Wake-ups arrive in bursts (a signal per created run, its relayed NOTIFY, one per finished
   * run): they are coalesced into one claim loop per tick, and a wake during a loop makes it go
   * round once more instead of starting another.
   */
  private wake(): void {
    if (this.stopping) return;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    if (this.wakeScheduled) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      if (this.claiming) this.claimAgain = true;
      else void this.claimLoop();
    });
  }

  /** A delayed run (after_seconds) announces itself with its due time: a timer wakes us then. */
  private wakeAt(dueAt: Date): void {
    if (this.stopping) return;
    if (this.dueTimer && this.nextDueAt && this.nextDueAt <= dueAt) return;
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.nextDueAt = dueAt;
    this.dueTimer = setTimeout(() => {
      this.dueTimer = null;
      this.nextDueAt = null;
      this.wake();
    }, Math.max(0, dueAt.getTime() - Date.now()) + 5);
    this.dueTimer.unref();
  }

  /** Fallback path (start-up, slow poll): also finds delayed runs whose announcement was missed. */
  private wakeAndCheckDelayed(): void {
    this.wake();
    if (this.stopping) return;
    nextRunDueAt(this.ctx.db.dataSource.manager, this.ctx.now()).then(
      (due) => due && this.wakeAt(due),
      (error: unknown) => this.ctx.log.warn({ err: coerceError(error) }, "could not look up delayed runs"),
    );
  }

  private async claimLoop(): Promise<void> {
    this.claiming = true;
    try {
      do {
        this.claimAgain = false;
        if (this.active.size >= this.options.concurrency) this.queueMayHaveMore = true;
        while (!this.stopping && this.active.size < this.options.concurrency) {
          const limit = this.options.concurrency - this.active.size;
          const { runs: claimed, prefixFull } = await this.claim(limit);
          for (const { run, threadIsEmpty } of claimed) this.launch(run, threadIsEmpty);
          // Fewer than asked: the queue had no more claimable runs (new ones wake us again), unless
          // the prefix of the queue the claim read was full (claim-runs.ts): then claim again.
          this.queueMayHaveMore = claimed.length === limit;
          if (claimed.length === 0 || (claimed.length < limit && !prefixFull)) break;
        }
      } while (this.claimAgain && !this.stopping);
      this.lastClaimLoopAt = new Date();
    } catch (error) {
      this.ctx.log.error({ err: coerceError(error) }, "claiming runs failed; retrying on the next wake-up");
    } finally {
      this.claiming = false;
    }
  }

  private async claim(limit: number): Promise<ClaimedRuns> {
    const claim = { workerId: this.workerId, limit, leaseMs: this.leaseMs, now: this.ctx.now() };
    try {
      return await claimRuns(this.ctx.db.dataSource.manager, claim);
    } catch (error) {
      // Another process claimed a run of the same thread at the same moment: the index said no.
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return claimRuns(this.ctx.db.dataSource.manager, claim);
      throw error;
    }
  }

  /** Hands a claimed run to the run lifecycle (attemptRun: execute, settle, release); keeps its abort signal. */
  private launch(run: Run, threadIsEmpty: boolean): void {
    const controller = new AbortController();
    const stopWatching = this.ctx.streaming.signals.onCancel(run.runId, () => void this.checkCancellation(run.runId));
    const claimed = { run, threadIsEmpty, workerId: this.workerId, leaseMs: this.leaseMs, signal: controller.signal, tracing: this.options.tracing };
    const done = attemptRun(this.ctx, claimed).then((threadHasActiveRuns) => {
      stopWatching();
      this.active.delete(run.runId);
      if (threadHasActiveRuns || this.queueMayHaveMore) this.wake();
    });
    this.active.set(run.runId, { run, controller, done });
    // A cancel asked for while the run was still pending but already being claimed.
    if (run.cancelAction) this.abort(run.runId, run.cancelAction);
  }

  private abort(runId: string, reason: AbortReason): void {
    const active = this.active.get(runId);
    if (active && !active.controller.signal.aborted) active.controller.abort(reason);
  }

  private async maintainLeases(): Promise<void> {
    if (this.stopping) return;
    const manager = this.ctx.db.dataSource.manager;
    try {
      const runIds = [...this.active.keys()];
      if (runIds.length > 0) {
        const held = await renewRunLeases(manager, { workerId: this.workerId, runIds, leaseMs: this.leaseMs });
        const heldIds = new Set(held.map((lease) => lease.runId));
        for (const runId of runIds) if (!heldIds.has(runId)) this.abort(runId, "lease-lost");
        for (const lease of held) if (lease.cancelAction) this.abort(lease.runId, lease.cancelAction);
      }
      const requeued = await requeueExpiredRuns(manager, this.ctx.now());
      if (requeued.length > 0) {
        this.ctx.log.warn({ runIds: requeued }, "requeued runs whose worker stopped renewing its lease");
        this.wake();
      }
    } catch (error) {
      this.ctx.log.error({ err: coerceError(error) }, "lease maintenance failed");
    }
  }
}
