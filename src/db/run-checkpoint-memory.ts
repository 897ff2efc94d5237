import type { RunnableConfig } from "@langchain/core/runnables";
import type { Checkpoint, CheckpointMetadata, CheckpointTuple, CheckpointPendingWrite } from "@langchain/langgraph-checkpoint";

/**
 * What the checkpointer knows without asking the database, for runs executing in this process.
 * It saves the two checkpoint reads every run used to make (a one-node run: 2 of its 13 round
 * trips, plus deserializing the state twice):
 *
 * - A thread that had no checkpoint when its run was claimed (the claim reads that in the same
 *   statement) has nothing for LangGraph's opening `getTuple` to find: the run is the thread's
 *   only writer, as the database allows one running run per thread and state edits are refused
 *   while a run is active.
 * - After the run, the worker reads the thread's state to record it with the outcome. That state
 *   is the last checkpoint the run committed plus the pending writes committed against it, which
 *   the checkpointer saw go by; nobody else can have written to the thread meanwhile, for the same
 *   reasons.
 *
 * Entries are removed when the run is settled (`forget`), so only runs in flight are held.
 */
export class RunCheckpointMemory {
  private readonly freshThreads = new Map<string, string>();
  private readonly lastCommitted = new Map<string, LastCommitted>();

  /** The run `runId` starts on a thread with no checkpoint. */
  expectEmptyThread(runId: string, threadId: string): void {
    this.freshThreads.set(runId, threadId);
  }

  /**
   * LangGraph's opening read of a run on a thread known to be empty: answered (once) with "no
   * checkpoint". Any other read goes to the database (`undefined` here means "don't know").
   */
  answersEmpty(config: RunnableConfig): boolean {
    const { run_id: runId, thread_id: threadId, checkpoint_ns: namespace = "", checkpoint_id: checkpointId } = config.configurable ?? {};
    if (typeof runId !== "string" || this.freshThreads.get(runId) !== threadId) return false;
    if (namespace !== "" || checkpointId !== undefined) return false;
    this.freshThreads.delete(runId);
    return true;
  }

  /** A root-namespace checkpoint of a run was committed. */
  checkpointCommitted(runId: string, config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata): void {
    const { thread_id: threadId, checkpoint_ns: namespace = "", checkpoint_id: parentId } = config.configurable ?? {};
    if (namespace !== "") return;
    this.freshThreads.delete(runId);
    const previous = this.lastCommitted.get(runId);
    const writes = new Map([...(previous?.writes ?? [])].filter(([checkpointId]) => checkpointId === checkpoint.id));
    this.lastCommitted.set(runId, { threadId, parentId, checkpoint, metadata, writes });
  }

  /** Pending writes of a run were committed against one of its checkpoints. */
  writesCommitted(runId: string, config: RunnableConfig, taskId: string, writes: ReadonlyArray<[string, unknown]>): void {
    const { thread_id: threadId, checkpoint_ns: namespace = "", checkpoint_id: checkpointId } = config.configurable ?? {};
    if (namespace !== "" || typeof checkpointId !== "string") return;
    let entry = this.lastCommitted.get(runId);
    if (!entry) {
      // Writes can commit before their checkpoint does (LangGraph does not wait for it).
      entry = { threadId, parentId: undefined, checkpoint: null, metadata: null, writes: new Map() };
      this.lastCommitted.set(runId, entry);
    }
    const list = entry.writes.get(checkpointId) ?? [];
    for (const [channel, value] of writes) list.push([taskId, channel, value]);
    entry.writes.set(checkpointId, list);
  }

  /** The latest checkpoint tuple of the run's thread, as getTuple would read it right now. */
  latestTuple(runId: string, threadId: string): CheckpointTuple | undefined {
    const entry = this.lastCommitted.get(runId);
    if (!entry?.checkpoint || !entry.metadata || entry.threadId !== threadId) return undefined;
    const address = (checkpointId: string) => ({ configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: checkpointId } });
    return {
      config: address(entry.checkpoint.id),
      checkpoint: entry.checkpoint,
      metadata: entry.metadata,
      parentConfig: entry.parentId ? address(entry.parentId) : undefined,
      pendingWrites: entry.writes.get(entry.checkpoint.id) ?? [],
    };
  }

  forget(runId: string): void {
    this.freshThreads.delete(runId);
    this.lastCommitted.delete(runId);
  }
}

interface LastCommitted {
  threadId: unknown;
  parentId: string | undefined;
  checkpoint: Checkpoint | null;
  metadata: CheckpointMetadata | null;
  /** By checkpoint id; only the latest checkpoint's are kept once it is committed. */
  writes: Map<string, CheckpointPendingWrite[]>;
}
