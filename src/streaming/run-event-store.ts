import type { Database } from "../db/database.js";
import { deleteOldRunEvents } from "../db/sql/delete-old-run-events.js";
import { insertRunEvents } from "../db/sql/insert-run-events.js";
import { readRunEvents } from "../db/sql/read-run-events.js";
import type { RunStreamEvent } from "../domain/run-event.js";
import type { Logger } from "../logger.js";

// Events are written in batches: a 1-node run emits ~3 events, and one INSERT per event would
// triple the database round trips of a run. 10 ms bounds how stale the stored copy can be.
const FLUSH_DELAY_MS = 10;
const FLUSH_BATCH_SIZE = 500;

/**
 * Stored copy of every run's stream, for replay (Last-Event-ID, late joiners, GraphQL
 * `Run.events`). Appends are buffered and flushed in multi-row inserts; reads merge what is in
 * the database with what is still buffered here, so a reader in this process never sees a gap.
 */
export class RunEventStore {
  private buffer: RunStreamEvent[] = [];
  /** Batches handed to the database but not yet committed: still served from memory. */
  private readonly unsettled = new Set<RunStreamEvent[]>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
  ) {}

  append(event: RunStreamEvent): void {
    this.buffer.push(event);
    if (this.buffer.length >= FLUSH_BATCH_SIZE) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
  }

  /** Writes everything buffered so far; resolves once it is in the database. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length > 0) this.unsettled.add(batch);
    // Chained so batches land in order and flush() callers wait for earlier batches too.
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0) return;
      try {
        await insertRunEvents(this.db.dataSource.manager, batch);
      } catch (error) {
        // Replay loses these events; live readers already have them. Not worth failing a run.
        this.log.error({ err: error, events: batch.length }, "could not store run events");
      } finally {
        this.unsettled.delete(batch);
      }
    });
    return this.flushing;
  }

  async read(runId: string, threadId: string, afterSeq: number): Promise<RunStreamEvent[]> {
    // What is in memory is taken BEFORE the database read: a batch that commits during the read
    // leaves memory when it lands, and taken after, it would be in neither (a replay with a gap).
    // Taken before, every event is either still in this copy or committed before the read began.
    const inMemory = [...this.unsettled, this.buffer].flat().filter((event) => event.runId === runId);
    const stored = await readRunEvents(this.db.dataSource.manager, runId, threadId, afterSeq);
    const lastStored = stored.at(-1)?.seq ?? afterSeq;
    const buffered = inMemory.filter((event) => event.seq > lastStored);
    return [...stored, ...buffered.sort((a, b) => a.seq - b.seq)];
  }

  async deleteOlderThan(cutoff: Date): Promise<number> {
    return deleteOldRunEvents(this.db.dataSource.manager, cutoff);
  }

  async close(): Promise<void> {
    await this.flush();
  }
}
