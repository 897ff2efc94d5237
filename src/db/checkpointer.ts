import type { RunnableConfig } from "@langchain/core/runnables";
import {
  WRITES_IDX_MAP,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type pg from "pg";
import { RunCheckpointMemory } from "./run-checkpoint-memory.js";
import { GroupCommit } from "./group-commit.js";
import { withRetry, WORKER_WRITE_PATIENCE_MS } from "./retry.js";
import { writeCheckpointBatch, type CheckpointBatchItem } from "./sql/write-checkpoint-batch.js";

const TEXT_DECODER = new TextDecoder();

/** configurable key of readAfterRunConfig: the run whose committed state is asked for. */
const READ_AFTER_RUN = "__hangar_read_after_run";

/** A write queued for the group commit, with the run it belongs to (if any). */
type QueuedWrite = CheckpointBatchItem & { runId?: string };

/** Keys of `config.metadata` that Hangar sets for each run it executes. */
const RUN_ID_KEYS = ["run_id", "thread_id", "assistant_id", "graph_id", "attempt"] as const;

/**
 * `config.metadata` keys that are LangGraph's or LangChain's own bookkeeping for a task (a
 * subgraph's checkpoints are written with its task's config), not the run's metadata.
 */
const INTERNAL_METADATA_KEY = /^(langgraph_|checkpoint_|ls_|__)/;

/**
 * The run's metadata as checkpoints carry it: the ids Hangar adds (run_id, thread_id,
 * assistant_id, graph_id, attempt) and the run's own metadata, so that history can be filtered
 * by it as on LangGraph Platform.
 */
function runMetadataStamp(config: RunnableConfig): Record<string, unknown> {
  const stamp: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config.metadata ?? {})) {
    if (value !== undefined && !INTERNAL_METADATA_KEY.test(key)) stamp[key] = value;
  }
  return stamp;
}

function runIdOf(config: RunnableConfig): string | undefined {
  const runId = config.configurable?.run_id ?? config.metadata?.run_id;
  return typeof runId === "string" ? runId : undefined;
}

/**
 * PostgresSaver that stamps each checkpoint with the run that wrote it and that run's metadata
 * (LangGraph JS does not copy config.metadata into checkpoint metadata by itself). Two things depend on the stamp:
 * - rollback deletes exactly the checkpoints whose metadata.run_id is the rolled-back run;
 * - a run retried after a crash is started with the same input and run_id, and LangGraph's loop
 *   treats "latest checkpoint has my run_id" as resuming, so it continues from that checkpoint
 *   instead of applying the input a second time.
 *
 * It also tracks each run's writes still in flight: with durability "async" LangGraph does not
 * wait for them, and an aborted run's last checkpoint can land after the run has ended. Settling
 * a run (above all a rollback, which deletes them) first waits for `writesSettled(runId)`.
 *
 * Runs registered with `acknowledgeWhenQueued` (every durability but "sync") get their writes
 * acknowledged once queued, not once committed; see `put`.
 */
export class RunStampingCheckpointer extends PostgresSaver {
  private readonly inFlight = new Map<string, Set<Promise<unknown>>>();
  private readonly batch: GroupCommit<QueuedWrite>;
  private readonly memory = new RunCheckpointMemory();
  private readonly acknowledgedWhenQueued = new Set<string>();
  /** The first write that failed, per run acknowledged when queued: it writes nothing after it. */
  private readonly failedWrites = new Map<string, unknown>();

  constructor(sqlPool: pg.Pool) {
    super(withPreparedReads(sqlPool));
    this.batch = new GroupCommit({
      // Upserts with PostgresSaver's conflict rules: idempotent, so a lost connection is waited out.
      write: (items) => withRetry(() => this.writeBatch(sqlPool, items), { retryOn: "idempotent", maxElapsedMs: WORKER_WRITE_PATIENCE_MS }),
      delayMs: 0,
      maxBatch: 500,
      // Every checkpoint write is submitted (awaited by LangGraph), so failures reach it directly.
      onError: () => undefined,
    });
    // getTuple's two reads (the latest checkpoint, or one by id), prepared like our writes (see
    // db/prepared-statement.ts). SELECT_SQL is private to PostgresSaver, hence the cast; should
    // its text change, these simply stop matching and the reads run unprepared.
    const { SELECT_SQL } = (this as unknown as { SQL_STATEMENTS: { SELECT_SQL: string } }).SQL_STATEMENTS;
    PREPARED_READS.set(`${SELECT_SQL}WHERE thread_id = $1 AND checkpoint_ns = $2 ORDER BY checkpoint_id DESC LIMIT 1`, "hangar_checkpoint_latest");
    PREPARED_READS.set(`${SELECT_SQL}WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3`, "hangar_checkpoint_by_id");
  }

  /**
   * Two reads are answered from what this process saw the run commit (run-checkpoint-memory.ts):
   * the opening read of a run on an empty thread, and `readAfterRunConfig` (the state a run left).
   */
  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    if (this.memory.answersEmpty(config)) return undefined;
    const { [READ_AFTER_RUN]: afterRun, thread_id: threadId } = config.configurable ?? {};
    if (typeof afterRun === "string" && typeof threadId === "string") {
      const tuple = this.memory.latestTuple(afterRun, threadId);
      if (tuple) return tuple;
    }
    return super.getTuple(config);
  }

  /** The config that reads the thread's latest checkpoint right after `runId` ended. */
  readAfterRunConfig(threadId: string, runId: string): { configurable: Record<string, unknown> } {
    return { configurable: { thread_id: threadId, checkpoint_ns: "", [READ_AFTER_RUN]: runId } };
  }

  expectEmptyThread(runId: string, threadId: string): void {
    this.memory.expectEmptyThread(runId, threadId);
  }

  /**
   * The run's puts and putWrites resolve as soon as they are queued for the group commit, instead
   * of once committed. For durability "async" (LangGraph's default) and "exit" nothing waits for a
   * write except the next `put`, which LangGraph chains behind the previous one: acknowledged on
   * commit, a one-node run's three checkpoints took three group-commit rounds one after the other
   * (about a third of its create→join time at 16 concurrent runs); queued, they share one. The
   * queue keeps their order, a run whose write failed writes nothing after it (a later checkpoint
   * would point at channel values that are not there), and `writesCommitted` reports the failure
   * before the run may end as a success. Not for "sync", which promises a committed checkpoint
   * before each next step.
   */
  acknowledgeWhenQueued(runId: string): void {
    this.acknowledgedWhenQueued.add(runId);
  }

  /** The run is settled: what was kept for it goes. */
  forgetRun(runId: string): void {
    this.memory.forget(runId);
    this.acknowledgedWhenQueued.delete(runId);
    this.failedWrites.delete(runId);
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    // LangGraph's own keys (source, step, parents) win over a user's metadata key of the same
    // name; Hangar's run ids win over both (rollback and resumption read them).
    const runMetadata = runMetadataStamp(config);
    const runIds = Object.fromEntries(RUN_ID_KEYS.filter((key) => key in runMetadata).map((key) => [key, runMetadata[key]]));
    const stamped = { ...runMetadata, ...metadata, ...runIds } as CheckpointMetadata;
    const item = await this.checkpointItem(config, checkpoint, stamped, newVersions);
    await this.submit(config, item);
    const runId = runIdOf(config);
    // Possibly only queued yet (acknowledgeWhenQueued); the memory is read once writes have settled.
    if (runId) this.memory.checkpointCommitted(runId, config, checkpoint, stamped);
    return { configurable: { thread_id: item.threadId, checkpoint_ns: item.checkpointNs, checkpoint_id: checkpoint.id } };
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    if (writes.length === 0) return;
    await this.submit(config, await this.pendingWritesItem(config, writes, taskId));
    const runId = runIdOf(config);
    if (runId) this.memory.writesCommitted(runId, config, taskId, writes as Array<[string, unknown]>);
  }

  /**
   * Queues a write. Resolves once committed, or at once for a run acknowledged when queued (its
   * write is still tracked, so `writesSettled` and `writesCommitted` wait for it).
   */
  private async submit(config: RunnableConfig, item: CheckpointBatchItem): Promise<void> {
    const runId = runIdOf(config);
    const acknowledgeWhenQueued = runId !== undefined && this.acknowledgedWhenQueued.has(runId);
    if (acknowledgeWhenQueued && this.failedWrites.has(runId)) throw this.failedWrites.get(runId);
    const committed = this.track(config, this.batch.submit({ ...item, runId }));
    if (!acknowledgeWhenQueued) return committed;
    committed.catch(() => {
      // Recorded by writeBatch; reads of the run's state go back to the database, which has the truth.
      this.memory.forget(runId);
    });
  }

  /** One round of the group commit; a run's write fails without a try once an earlier one failed. */
  private async writeBatch(sqlPool: pg.Pool, items: QueuedWrite[]): Promise<void> {
    const spoiled = items.find((item) => item.runId !== undefined && this.failedWrites.has(item.runId));
    // Several: the group commit retries each alone, and only the spoiled ones fail.
    if (spoiled) throw items.length === 1 ? this.failedWrites.get(spoiled.runId!) : new Error("a write of this round belongs to a run whose earlier write failed");
    try {
      await writeCheckpointBatch(sqlPool, items);
    } catch (error) {
      // Recorded here, synchronously, before the group commit tries the next item alone.
      const [only] = items;
      if (items.length === 1 && only?.runId && this.acknowledgedWhenQueued.has(only.runId)) this.failedWrites.set(only.runId, error);
      throw error;
    }
  }

  /**
   * The rows PostgresSaver.put writes, for the group commit: instead of BEGIN + one INSERT per
   * channel + INSERT + COMMIT on a dedicated connection, the puts and putWrites of every run in
   * flight share one statement per round (db/group-commit.ts).
   */
  private async checkpointItem(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<CheckpointBatchItem> {
    const { thread_id: threadId, checkpoint_ns: checkpointNs = "", checkpoint_id: parentId } = config.configurable ?? {};
    if (threadId === undefined) throw new Error(`Missing "thread_id" in config.configurable`);
    const [blobs, [, serializedMetadata]] = await Promise.all([
      this._dumpBlobs(threadId, checkpointNs, checkpoint.channel_values, newVersions),
      this.serde.dumpsTyped(metadata),
    ]);
    return {
      kind: "checkpoint",
      threadId,
      checkpointNs,
      checkpointId: checkpoint.id,
      parentId,
      checkpointJson: JSON.stringify(this._dumpCheckpoint(checkpoint)),
      // PostgresSaver parses this back into an object for pg to stringify again; the text is the same.
      metadataJson: TEXT_DECODER.decode(serializedMetadata).replace(/\0/g, ""),
      blobs: blobs.map(([, , channel, version, type, blob]) => ({ channel, version, type, blob: blob ? Buffer.from(blob) : null })),
    };
  }

  /** PostgresSaver.putWrites as one item of the group commit (same conflict rules). */
  private async pendingWritesItem(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<CheckpointBatchItem> {
    const { thread_id: threadId, checkpoint_ns: checkpointNs = "", checkpoint_id: checkpointId } = config.configurable ?? {};
    const dumped = await this._dumpWrites(threadId, checkpointNs, checkpointId, taskId, writes as [string, unknown][]);
    return {
      kind: "writes",
      threadId,
      checkpointNs,
      checkpointId,
      taskId,
      // Special channels (errors, interrupts...) have fixed indexes and replace; others keep the first.
      replaces: writes.every(([channel]) => channel in WRITES_IDX_MAP),
      writes: dumped.map((row) => ({ idx: row[4], channel: row[5], type: row[6], blob: Buffer.from(row[7]) })),
    };
  }

  /**
   * Channel versions must be unique per write, not just increasing: the saver stores channel
   * values keyed by (thread, namespace, channel, version) with ON CONFLICT DO NOTHING, so a fork
   * from an older checkpoint (time travel, updateState with checkpoint_id) that reused version
   * N+1 would silently read the other branch's value. Versions are "<zero-padded counter>.<random>"
   * strings, which still compare in order as LangGraph needs (as the Python saver does).
   */
  override getNextVersion(current: number | string | undefined): number {
    const previous = typeof current === "string" ? Number.parseInt(current.split(".")[0]!, 10) : (current ?? 0);
    const suffix = Math.random().toString().slice(2, 18).padEnd(16, "0");
    return `${String(previous + 1).padStart(32, "0")}.${suffix}` as unknown as number;
  }

  /** Resolves once every checkpoint write of the run started so far has finished (or failed). */
  async writesSettled(runId: string): Promise<void> {
    const pending = this.inFlight.get(runId);
    if (pending) await Promise.allSettled([...pending]);
  }

  /**
   * Like writesSettled, but throws the run's first failed write: for a run acknowledged when
   * queued, the only place its graph learns that a checkpoint never reached the database.
   */
  async writesCommitted(runId: string): Promise<void> {
    await this.writesSettled(runId);
    const failure = this.failedWrites.get(runId);
    if (failure !== undefined) throw failure;
  }

  private track<T>(config: RunnableConfig, write: Promise<T>): Promise<T> {
    const runId = runIdOf(config);
    if (!runId) return write;
    let pending = this.inFlight.get(runId);
    if (!pending) this.inFlight.set(runId, (pending = new Set()));
    const settled = pending;
    settled.add(write);
    const forget = () => {
      settled.delete(write);
      if (settled.size === 0 && this.inFlight.get(runId) === settled) this.inFlight.delete(runId);
    };
    write.then(forget, forget);
    return write;
  }
}

/** Statement names of the saver's read texts that are prepared (filled by the constructor). */
const PREPARED_READS = new Map<string, string>();

/** The pool as PostgresSaver sees it: queries whose text is in PREPARED_READS run prepared. */
function withPreparedReads(pool: pg.Pool): pg.Pool {
  return new Proxy(pool, {
    get(target, property) {
      if (property === "query") {
        return (text: unknown, values?: unknown[]) => {
          const name = typeof text === "string" ? PREPARED_READS.get(text) : undefined;
          return name ? target.query({ name, text: text as string, values }) : target.query(text as string, values);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
