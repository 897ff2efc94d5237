import { AsyncResource } from "node:async_hooks";

/**
 * Group commit: writes that many concurrent runs make (checkpoints, stream events, trace runs)
 * are gathered into rounds, and each round is written with ONE statement. One round is in flight
 * at a time; whatever arrives meanwhile waits for the next one, so batches grow with the load and
 * the statements per run shrink as concurrency rises.
 *
 * Why: at 16 concurrent runs each run made ~15 round trips; on 2 cores PostgreSQL's per-statement
 * cost (parse/bind/execute/commit and the WAL flush) and the server's socket writes were most of a
 * run's cost, not the rows themselves.
 *
 * - `submit(item)` resolves when the item is committed (the writer awaits it, e.g. a checkpoint);
 *   a round starts on the next turn of the event loop, so items of the same turn share it.
 * - `add(item)` is fire-and-forget: the item is written within `delayMs`, or sooner by any round.
 * - `flush()` resolves once everything added or submitted before the call is written.
 *
 * A failed round is retried item by item, so one bad item (a row whose run was deleted meanwhile,
 * say) fails alone instead of failing every run that shared its round.
 */
export interface GroupCommitOptions<T> {
  /** Writes a batch in one statement; throws if the statement failed (nothing was written). */
  write: (batch: T[]) => Promise<void>;
  /** How long an `add`ed item may wait for a round when nobody asks for one. */
  delayMs: number;
  /** A round is started at once when this many items are waiting. */
  maxBatch: number;
  /** Told when `add`ed items could not be written (`submit`ted ones reject instead). */
  onError: (error: unknown, items: number) => void;
}

interface Pending<T> {
  item: T;
  settle?: { resolve: () => void; reject: (error: unknown) => void };
}

export class GroupCommit<T> {
  private queued: Array<Pending<T>> = [];
  private inFlightItems: T[] = [];
  private flushWaiters: Array<() => void> = [];
  private inFlight: Promise<void> | null = null;
  private roundScheduled = false;
  private timer: NodeJS.Timeout | null = null;

  /**
   * The context rounds run in: the one the group commit was made in (the database's, at start),
   * never a caller's. A round started in a caller's AsyncLocalStorage context would carry it into
   * every statement of the round and the rounds after: a GraphQL operation's pool share
   * (db/pool-share.ts) would count, and its deadline abort, the statement that also writes other
   * requests' items; a run's log context would name other runs' writes.
   */
  private readonly ownContext = new AsyncResource("GroupCommit");

  constructor(private readonly options: GroupCommitOptions<T>) {}

  submit(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ item, settle: { resolve, reject } });
      this.requestRound();
    });
  }

  add(item: T): void {
    this.queued.push({ item });
    if (this.queued.length >= this.options.maxBatch) this.requestRound();
    else this.startTimer();
  }

  flush(): Promise<void> {
    if (!this.inFlight && this.queued.length === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.flushWaiters.push(resolve);
      this.requestRound();
    });
  }

  /** Items not yet committed (queued or in the round in flight), oldest first. */
  get uncommitted(): readonly T[] {
    return [...this.inFlightItems, ...this.queued.map((pending) => pending.item)];
  }

  /**
   * Starts the `delayMs` timer unless one is pending. A timer that fired forgets itself first:
   * one that fires while a round is in flight does nothing, and left set it would keep every
   * later `add` from starting a timer, so added items waited for the next flush or submit
   * (a run's events reached other processes' readers only when the run ended).
   */
  private startTimer(): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.requestRound();
    }, this.options.delayMs);
  }

  private requestRound(): void {
    // A round in flight starts the next one when it ends.
    if (this.inFlight || this.roundScheduled) return;
    this.roundScheduled = true;
    setImmediate(() =>
      this.ownContext.runInAsyncScope(() => {
        this.roundScheduled = false;
        if (!this.inFlight) this.startRound();
      }),
    );
  }

  private startRound(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.queued;
    const waiters = this.flushWaiters;
    this.queued = [];
    this.flushWaiters = [];
    this.inFlightItems = batch.map((pending) => pending.item);
    this.inFlight = this.writeRound(batch).finally(() => {
      this.inFlight = null;
      this.inFlightItems = [];
      for (const resolve of waiters) resolve();
      if (this.flushWaiters.length > 0 || this.queued.some((pending) => pending.settle)) this.startRound();
      else if (this.queued.length > 0) this.startTimer();
    });
  }

  /** Never throws: each item's outcome goes to its submitter, or to onError for added items. */
  private async writeRound(batch: Array<Pending<T>>): Promise<void> {
    if (batch.length === 0) return;
    try {
      await this.options.write(batch.map((pending) => pending.item));
      for (const pending of batch) pending.settle?.resolve();
      return;
    } catch (error) {
      if (batch.length === 1) return this.fail(batch, error);
    }
    // One item spoiled the round: each goes alone, and only the failing ones fail.
    for (const pending of batch) {
      try {
        await this.options.write([pending.item]);
        pending.settle?.resolve();
      } catch (error) {
        this.fail([pending], error);
      }
    }
  }

  private fail(batch: Array<Pending<T>>, error: unknown): void {
    for (const pending of batch) pending.settle?.reject(error);
    const added = batch.filter((pending) => !pending.settle).length;
    if (added > 0) this.options.onError(error, added);
  }
}
