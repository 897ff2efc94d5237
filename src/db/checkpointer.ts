import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import type pg from "pg";
import type { Logger } from "../logger.js";
import { CheckpointBlobCodec, type BlobCipher } from "./checkpoint-encryption.js";
import { addressOf, dumpCheckpoint, dumpWrites, loadCheckpointTuple } from "./checkpoint-serde.js";
import { RunCheckpointMemory } from "./run-checkpoint-memory.js";
import { GroupCommit } from "./group-commit.js";
import { withRetry, WORKER_WRITE_PATIENCE_MS } from "./retry.js";
import { purgeThreadCheckpoints } from "./sql/purge-thread-checkpoints.js";
import { selectCheckpoints, type CheckpointQuery, type CheckpointRow } from "./sql/select-checkpoints.js";
import { selectPendingSends } from "./sql/select-pending-sends.js";
import { writeCheckpointBatch, type CheckpointBatchItem } from "./sql/write-checkpoint-batch.js";

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
 * Hangar's checkpointer: LangGraph's public BaseCheckpointSaver contract (getTuple, list, put,
 * putWrites, deleteThread; checked by @langchain/langgraph-checkpoint-validation) on the checkpoint
 * tables Hangar's migrations own (migrations/1763760070000-adopt-checkpoint-tables.ts), with
 * values serialized by the public `serde` (db/checkpoint-serde.ts).
 *
 * Writes go through a group commit (db/group-commit.ts): the puts and putWrites of every run in
 * flight share one statement per round (db/sql/write-checkpoint-batch.ts) instead of a transaction
 * of one INSERT per channel each. Same conflict rules as sequential writes: channel values are
 * immutable per version, a checkpoint written again replaces its row, pending writes keep the
 * first row unless they are special channels (errors, interrupts...).
 *
 * It stamps each checkpoint with the run that wrote it and that run's metadata (LangGraph JS
 * does not copy config.metadata into checkpoint metadata by itself). Two things depend on the stamp:
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
export class RunStampingCheckpointer extends BaseCheckpointSaver<number> {
  private readonly inFlight = new Map<string, Set<Promise<unknown>>>();
  private readonly batch: GroupCommit<QueuedWrite>;
  private readonly memory = new RunCheckpointMemory();
  private readonly acknowledgedWhenQueued = new Set<string>();
  /** The first write that failed, per run acknowledged when queued: it writes nothing after it. */
  private readonly failedWrites = new Map<string, unknown>();
  private readonly blobs: CheckpointBlobCodec;

  /** `cipher`: the deployment's encryption handlers (langgraph.json `encryption.path`), if any; `log` reports their failures. */
  constructor(
    private readonly pool: pg.Pool | pg.PoolClient,
    private readonly options: { serde?: SerializerProtocol; cipher?: BlobCipher | null; log?: Logger } = {},
  ) {
    super(options.serde);
    this.blobs = new CheckpointBlobCodec(this.serde, options.cipher ?? null, options.log);
    this.batch = new GroupCommit({
      // Upserts: idempotent, so a lost connection is waited out.
      write: (items) => withRetry(() => this.writeBatch(items), { retryOn: "idempotent", maxElapsedMs: WORKER_WRITE_PATIENCE_MS }),
      delayMs: 0,
      maxBatch: 500,
      // Every checkpoint write is submitted (awaited by LangGraph), so failures reach it directly.
      onError: () => undefined,
    });
  }

  /**
   * Two reads are answered from what this process saw the run commit (run-checkpoint-memory.ts):
   * the opening read of a run on an empty thread, and `readAfterRunConfig` (the state a run left).
   */
  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    if (this.memory.answersEmpty(config)) return undefined;
    const { threadId, checkpointNs, checkpointId } = addressOf(config);
    if (threadId === undefined) return undefined;
    const afterRun = config.configurable?.[READ_AFTER_RUN];
    if (typeof afterRun === "string") {
      const tuple = this.memory.latestTuple(afterRun, threadId);
      if (tuple) return tuple;
    }
    // The latest checkpoint of the namespace, or the one named.
    const [row] = await selectCheckpoints(this.pool, checkpointId === undefined ? { threadId, checkpointNs, limit: 1 } : { threadId, checkpointNs, checkpointId });
    return row && (await this.loadTuples([row]))[0];
  }

  /** Checkpoints newest first; config narrows by thread, namespace and id when it names them. */
  override async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const { thread_id: threadId, checkpoint_ns: checkpointNs, checkpoint_id: checkpointId } = config.configurable ?? {};
    const before = options.before?.configurable?.checkpoint_id;
    const query: CheckpointQuery = {
      threadId: threadId === undefined || threadId === null || threadId === "" ? undefined : String(threadId),
      checkpointNs: typeof checkpointNs === "string" ? checkpointNs : undefined,
      checkpointId: typeof checkpointId === "string" && checkpointId !== "" ? checkpointId : undefined,
      metadata: options.filter && Object.keys(options.filter).length > 0 ? options.filter : undefined,
      before: typeof before === "string" ? before : undefined,
      limit: options.limit === undefined ? undefined : Math.max(0, Math.trunc(options.limit)),
    };
    yield* await this.loadTuples(await selectCheckpoints(this.pool, query));
  }

  /** Deletes every checkpoint, channel value and pending write of the thread (after the writes queued so far). */
  override async deleteThread(threadId: string): Promise<void> {
    await this.batch.flush();
    await purgeThreadCheckpoints(this.pool, threadId);
  }

  /**
   * Rows as tuples. A checkpoint of format v < 4 (written by LangGraph before 0.3) kept its
   * pending Sends as its parent's pending writes; they are read back into the TASKS channel.
   */
  private async loadTuples(rows: CheckpointRow[]): Promise<CheckpointTuple[]> {
    return Promise.all(
      rows.map(async (row) => {
        const parentId = row.checkpoint.v < 4 ? row.parent_checkpoint_id : null;
        const [sends] = parentId ? await selectPendingSends(this.pool, row.thread_id, row.checkpoint_ns, [parentId]) : [];
        return loadCheckpointTuple(this.serde, this.blobs, row, sends, () => this.getNextVersion(undefined));
      }),
    );
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

  /**
   * A checkpointer that reads and writes on `client`, the connection of an open transaction, so
   * that a state edit commits or rolls back with the rest of that transaction (a state edit and
   * the run started from it: services/run-lifecycle/continue-thread.ts). For edits outside runs:
   * it knows none of this checkpointer's runs.
   */
  inTransaction(client: pg.PoolClient): RunStampingCheckpointer {
    return new RunStampingCheckpointer(client, { ...this.options, serde: this.serde });
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
    const item = await dumpCheckpoint(this.serde, this.blobs, config, checkpoint, stamped, newVersions);
    await this.submit(config, item);
    const runId = runIdOf(config);
    // Possibly only queued yet (acknowledgeWhenQueued); the memory is read once writes have settled.
    if (runId) this.memory.checkpointCommitted(runId, config, checkpoint, stamped);
    return { configurable: { thread_id: item.threadId, checkpoint_ns: item.checkpointNs, checkpoint_id: checkpoint.id } };
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath = ""): Promise<void> {
    if (writes.length === 0) return;
    await this.submit(config, await dumpWrites(this.blobs, config, writes, taskId, taskPath));
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
  private async writeBatch(items: QueuedWrite[]): Promise<void> {
    const spoiled = items.find((item) => item.runId !== undefined && this.failedWrites.has(item.runId));
    // Several: the group commit retries each alone, and only the spoiled ones fail.
    if (spoiled) throw items.length === 1 ? this.failedWrites.get(spoiled.runId!) : new Error("a write of this round belongs to a run whose earlier write failed");
    // Writes of runs acknowledged when queued are made durable by their run's settle, which
    // commits after them with the WAL flushed (commit-flush.ts); any other write (a state edit,
    // a `sync` run's step) is promised on its own commit.
    const awaitFlush = items.some((item) => item.runId === undefined || !this.acknowledgedWhenQueued.has(item.runId));
    try {
      await writeCheckpointBatch(this.pool, items, { awaitFlush });
    } catch (error) {
      // Recorded here, synchronously, before the group commit tries the next item alone.
      const [only] = items;
      if (items.length === 1 && only?.runId && this.acknowledgedWhenQueued.has(only.runId)) this.failedWrites.set(only.runId, error);
      throw error;
    }
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
