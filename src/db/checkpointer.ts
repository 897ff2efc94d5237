import type { RunnableConfig } from "@langchain/core/runnables";
import type { Checkpoint, CheckpointMetadata, ChannelVersions, PendingWrite } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";

/** Keys of `config.metadata` that Hangar copies into every checkpoint a run writes. */
const RUN_METADATA_KEYS = ["run_id", "thread_id", "assistant_id", "graph_id", "attempt"] as const;

function runIdOf(config: RunnableConfig): string | undefined {
  const runId = config.configurable?.run_id ?? config.metadata?.run_id;
  return typeof runId === "string" ? runId : undefined;
}

/**
 * PostgresSaver that stamps each checkpoint with the run that wrote it (LangGraph JS does not copy
 * config.metadata into checkpoint metadata by itself). Two things depend on the stamp:
 * - rollback deletes exactly the checkpoints whose metadata.run_id is the rolled-back run;
 * - a run retried after a crash is started with the same input and run_id, and LangGraph's loop
 *   treats "latest checkpoint has my run_id" as resuming, so it continues from that checkpoint
 *   instead of applying the input a second time.
 *
 * It also tracks each run's writes still in flight: with durability "async" LangGraph does not
 * wait for them, and an aborted run's last checkpoint can land after the run has ended. Settling
 * a run (above all a rollback, which deletes them) first waits for `writesSettled(runId)`.
 */
export class RunStampingCheckpointer extends PostgresSaver {
  private readonly inFlight = new Map<string, Set<Promise<unknown>>>();

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const runMetadata = config.metadata ?? {};
    const stamp: Record<string, unknown> = {};
    for (const key of RUN_METADATA_KEYS) if (runMetadata[key] !== undefined) stamp[key] = runMetadata[key];
    return this.track(config, super.put(config, checkpoint, { ...metadata, ...stamp } as CheckpointMetadata, newVersions));
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    return this.track(config, super.putWrites(config, writes, taskId));
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
