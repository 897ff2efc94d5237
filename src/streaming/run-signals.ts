import { EventEmitter } from "node:events";
import { ASSISTANTS_CHANGED_CHANNEL } from "../db/change-announcer.js";
import { listenToChannels } from "../db/listen-channels.js";
import type { RunStatusAndValues } from "../domain/run.js";
import type { Logger } from "../logger.js";

const MAX_CREATED_RUNS_KEPT = 100_000;

/**
 * Wake-ups about the run queue, delivered to whoever waits in this process:
 * - `pending`: a run became claimable (wakes the worker loop);
 * - `cancel`: a running run was asked to stop (the worker holding it aborts it);
 * - `done`: a run finished or was deleted (wakes join / wait). Raised by the worker that settled
 *   the run, it carries the outcome it recorded, so a join in this process needs no read.
 *
 * Services raise them in-process right after their commit. With PostgreSQL, the runs trigger also
 * NOTIFYs each change and `listenForRunSignals` relays them, so a worker or waiter in another
 * process hears them too. Every listener is idempotent, so hearing a signal twice (in-process and
 * relayed) costs one extra look at the database, never a wrong result. The relay skips `pending`
 * sent by this process's own connections: every path that makes a run pending here raises it
 * in-process (run creation) or wakes the worker itself (lease expiry requeue).
 */
export class RunSignals {
  private readonly emitter = new EventEmitter();
  /** Runs this process's worker executes (with their thread): it raises their `done` itself, with the outcome. */
  private readonly doneRaisedByWorker = new Map<string, string>();
  /** Runs created by this process that have not been announced `done` yet, with their thread. */
  private readonly createdHere = new Map<string, string>();

  constructor() {
    // One waiter per join/stream request: many are normal.
    this.emitter.setMaxListeners(0);
  }

  /** `dueAt`: when the run becomes claimable, for runs delayed with after_seconds. */
  runPending(dueAt?: Date): void {
    this.emitter.emit("pending", dueAt);
  }

  cancelRequested(runId: string): void {
    this.emitter.emit(`cancel:${runId}`);
  }

  /**
   * A run was queued by this process: until its `done`, a join here knows it exists, on which
   * thread, and that it has not ended, without reading it (see threadOfLiveRun).
   */
  runCreated(runId: string, threadId: string): void {
    // Bounded: a run whose `done` this process never hears (ended by another process while the
    // listener was reconnecting) would otherwise stay forever. Maps iterate oldest first.
    if (this.createdHere.size >= MAX_CREATED_RUNS_KEPT) this.createdHere.delete(this.createdHere.keys().next().value!);
    this.createdHere.set(runId, threadId);
  }

  /** Notifications were lost (listener reconnect): `done` may have been missed for any of them. */
  forgetCreatedRuns(): void {
    this.createdHere.clear();
  }

  runDone(runId: string, outcome?: RunStatusAndValues): void {
    this.doneRaisedByWorker.delete(runId);
    this.createdHere.delete(runId);
    this.emitter.emit(`done:${runId}`, outcome);
  }

  /**
   * Between claim and settle, the relayed NOTIFY of the settle's own commit is not passed on: it
   * races the in-process `done` (separate sockets) and, winning, made joiners read the outcome
   * the in-process signal was about to hand them.
   */
  workerExecutes(runId: string, threadId: string): void {
    this.doneRaisedByWorker.set(runId, threadId);
  }

  workerReleased(runId: string): void {
    this.doneRaisedByWorker.delete(runId);
  }

  /** Whether a relayed `done` of this process's own commit can be dropped (see workerExecutes). */
  isDoneRaisedByWorker(runId: string): boolean {
    return this.doneRaisedByWorker.has(runId);
  }

  /**
   * The thread of a run known to exist and not to have ended, if this process knows: one its
   * worker is executing (whose `done` will come from here, with the outcome), or one it created
   * whose `done` has not been heard yet. Answered in the same turn as a waiter subscribes to
   * `done`, nothing can be missed in between.
   */
  threadOfLiveRun(runId: string): string | undefined {
    return this.doneRaisedByWorker.get(runId) ?? this.createdHere.get(runId);
  }

  onPending(listener: (dueAt?: Date) => void): () => void {
    return this.on("pending", listener);
  }

  onCancel(runId: string, listener: () => void): () => void {
    return this.on(`cancel:${runId}`, listener);
  }

  /** `outcome`: what was recorded, when the run was settled by this process (not if deleted). */
  onDone(runId: string, listener: (outcome?: RunStatusAndValues) => void): () => void {
    return this.on(`done:${runId}`, listener);
  }

  /**
   * Crons were created, changed or deleted: the cron scheduler re-plans its wake-up. Raised
   * in-process by the crons service; on PostgreSQL, other processes' changes (the crons trigger's
   * NOTIFY) are relayed by `listenForRunSignals`, which also raises it after a reconnect.
   */
  cronsChanged(): void {
    this.emitter.emit("crons-changed");
  }

  onCronsChanged(listener: () => void): () => void {
    return this.on("crons-changed", listener);
  }

  /**
   * An assistant was created, changed or deleted: MCP sessions tell their clients the tool list
   * changed. Raised in-process by the service; other processes hear the NOTIFY the service sends
   * after its commit (db/change-announcer.ts), relayed by `listenForRunSignals`.
   */
  assistantsChanged(): void {
    this.emitter.emit("assistants-changed");
  }

  onAssistantsChanged(listener: () => void): () => void {
    return this.on("assistants-changed", listener);
  }

  /**
   * A finished run's webhook was queued in the outbox by this process: its webhook dispatcher
   * delivers it now. In-process only: other processes' dispatchers find rows when they poll.
   */
  webhooksQueued(): void {
    this.emitter.emit("webhooks-queued");
  }

  onWebhooksQueued(listener: () => void): () => void {
    return this.on("webhooks-queued", listener);
  }

  private on<Args extends unknown[]>(name: string, listener: (...args: Args) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}

/**
 * Relays the NOTIFYs of the runs and crons triggers and of the assistants service into `signals`
 * on one connection (one LISTEN connection per process, not one per consumer), and after a
 * reconnect raises `pending`, `assistantsChanged` and `cronsChanged`, since notifications sent
 * meanwhile are lost.
 */
export function listenForRunSignals(
  connectionString: string,
  signals: RunSignals,
  log: Logger,
  isOwnBackend: (pid: number) => boolean = () => false,
): Promise<{ close(): Promise<void> }> {
  return listenToChannels({
    connectionString,
    channels: ["hangar_run_pending", "hangar_run_cancel", "hangar_run_done", ASSISTANTS_CHANGED_CHANNEL, "hangar_cron_changed"],
    name: "hangar-run-signals",
    onNotification(message) {
      if (message.channel === "hangar_run_pending") {
        // Runs queued by this process were announced in-process at their commit already; hearing
        // them again cost every run a second, empty claim (0.7 extra round trips per run).
        if (isOwnBackend(message.processId)) return;
        const dueAt = Number(message.payload);
        signals.runPending(Number.isFinite(dueAt) && dueAt > 0 ? new Date(dueAt) : undefined);
      } else if (message.channel === "hangar_run_cancel" && message.payload) signals.cancelRequested(message.payload);
      else if (message.channel === ASSISTANTS_CHANGED_CHANNEL) {
        // This process's own changes were announced in-process at their commit already.
        if (!isOwnBackend(message.processId)) signals.assistantsChanged();
      }
      else if (message.channel === "hangar_cron_changed") {
        // This process's own cron writes need no relay: the crons service raised them at their
        // commit, and its own firing (which moves next_run_date, so NOTIFYs every tick) is what
        // its scheduler just did; relayed, each firing tick would cost one more, empty tick.
        if (!isOwnBackend(message.processId)) signals.cronsChanged();
      }
      else if (message.channel === "hangar_run_done" && message.payload) {
        if (isOwnBackend(message.processId) && signals.isDoneRaisedByWorker(message.payload)) return;
        signals.runDone(message.payload);
      }
    },
    onReconnect: () => {
      signals.forgetCreatedRuns();
      signals.runPending();
      // Assistant changes announced meanwhile were lost: clients look at their tool lists again.
      signals.assistantsChanged();
      // A cron created elsewhere meanwhile would otherwise wait for the scheduler's safety poll.
      signals.cronsChanged();
    },
    log,
  });
}
