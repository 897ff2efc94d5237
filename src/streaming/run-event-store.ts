import type { Database } from "../db/database.js";
import { GroupCommit } from "../db/group-commit.js";
import { deleteOldRunEvents } from "../db/sql/delete-old-run-events.js";
import { insertRunEvents } from "../db/sql/insert-run-events.js";
import { readRunEvents } from "../db/sql/read-run-events.js";
import { readThreadEvents } from "../db/sql/read-thread-events.js";
import { withRetry, WORKER_WRITE_PATIENCE_MS } from "../db/retry.js";
import type { RunStreamEvent } from "../domain/run-event.js";
import type { Logger } from "../logger.js";
import type { RunEventBus } from "./run-event-bus.js";
import { SharedThreadReads, type ThreadEventPage } from "./shared-thread-reads.js";

// Events are written in batches: a 1-node run emits ~3 events, and one INSERT per event would
// triple the database round trips of a run. 10 ms bounds how stale the stored copy can be, and
// how late readers in other processes hear of an event (they hear once it is stored); a finishing
// run flushes at once, and concurrent runs share the round (db/group-commit.ts).
const FLUSH_DELAY_MS = 10;
const FLUSH_BATCH_SIZE = 500;
/** Most events one read of a thread's stream returns. */
const THREAD_PAGE = 1000;

interface AppendedEvent {
  event: RunStreamEvent;
  /** Sent to other processes' readers once committed (run-event-bus.ts says why not before). */
  published: boolean;
}

/**
 * Stored copy of every run's stream, for replay (Last-Event-ID, late joiners, GraphQL
 * `Run.events`). Appends are buffered and written in multi-row inserts; reads merge what is in
 * the database with what is not committed yet, so a reader in this process never sees a gap.
 */
export class RunEventStore {
  private readonly pending: GroupCommit<AppendedEvent>;
  private readonly threadReads: SharedThreadReads;

  constructor(
    private readonly db: Database,
    private readonly bus: RunEventBus,
    log: Logger,
  ) {
    this.pending = new GroupCommit({
      write: (appended) => this.write(appended),
      delayMs: FLUSH_DELAY_MS,
      maxBatch: FLUSH_BATCH_SIZE,
      // Replay loses these events; live readers already have them. Not worth failing a run.
      onError: (error, events) => log.error({ err: error, events }, "could not store run events"),
    });
    this.threadReads = new SharedThreadReads(
      { flush: () => this.flush(), read: (threadId, afterPosition, limit) => readThreadEvents(this.db.dataSource.manager, threadId, afterPosition, limit) },
      THREAD_PAGE,
    );
  }

  /**
   * Stores a run's event. `publish`: readers hear of it too, those of this process at once (they
   * read what is not committed yet), those of other processes once it is committed (they read the
   * database). Held events (execute-run.ts) are stored unpublished; settle publishes them later.
   */
  append(event: RunStreamEvent, publish: boolean): void {
    if (publish) this.bus.deliverLocally({ kind: "event", event });
    this.pending.add({ event, published: publish });
  }

  /** Writes everything appended so far; resolves once it is in the database. */
  flush(): Promise<void> {
    return this.pending.flush();
  }

  async read(runId: string, threadId: string, afterSeq: number): Promise<RunStreamEvent[]> {
    // What is in memory is taken BEFORE the database read: a batch that commits during the read
    // leaves memory when it lands, and taken after, it would be in neither (a replay with a gap).
    // Taken before, every event is either still in this copy or committed before the read began.
    const inMemory = this.pending.uncommitted.flatMap(({ event }) => (event.runId === runId ? [event] : []));
    const stored = await readRunEvents(this.db.dataSource.manager, runId, threadId, afterSeq);
    const lastStored = stored.at(-1)?.seq ?? afterSeq;
    const buffered = inMemory.filter((event) => event.seq > lastStored);
    return [...stored, ...buffered.sort((a, b) => a.seq - b.seq)];
  }

  /**
   * A thread's stored events after a stream position, this process's buffered ones written first;
   * the streams of one thread that ask together share one read (shared-thread-reads.ts).
   */
  readThreadAfter(threadId: string, afterPosition: number): Promise<ThreadEventPage> {
    return this.threadReads.readAfter(threadId, afterPosition);
  }

  /** Called again item by item when a batch fails (group-commit.ts): what it announces is what committed. */
  private async write(appended: AppendedEvent[]): Promise<void> {
    const events = appended.map(({ event }) => event);
    // Idempotent (ON CONFLICT DO NOTHING), so a lost connection is waited out, not a lost replay.
    await withRetry(() => insertRunEvents(this.db.dataSource.manager, events), { retryOn: "idempotent", maxElapsedMs: WORKER_WRITE_PATIENCE_MS });
    // Before the round resolves, so before a flush that waits for it: a run's events reach other
    // processes before its end does (settle flushes, then announces the end).
    for (const { event, published } of appended) if (published) this.bus.sendToOtherProcesses({ kind: "event", event });
  }

  async deleteOlderThan(cutoff: Date): Promise<number> {
    return deleteOldRunEvents(this.db.dataSource.manager, cutoff);
  }

  async close(): Promise<void> {
    await this.flush();
  }
}
