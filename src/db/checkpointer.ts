import type { RunnableConfig } from "@langchain/core/runnables";
import type { Checkpoint, CheckpointMetadata, ChannelVersions } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";

/** Keys of `config.metadata` that Hangar copies into every checkpoint a run writes. */
const RUN_METADATA_KEYS = ["run_id", "thread_id", "assistant_id", "graph_id", "attempt"] as const;

/**
 * PostgresSaver that stamps each checkpoint with the run that wrote it (LangGraph JS does not copy
 * config.metadata into checkpoint metadata by itself). Two things depend on the stamp:
 * - rollback deletes exactly the checkpoints whose metadata.run_id is the rolled-back run;
 * - a run retried after a crash is started with the same input and run_id, and LangGraph's loop
 *   treats "latest checkpoint has my run_id" as resuming, so it continues from that checkpoint
 *   instead of applying the input a second time.
 */
export class RunStampingCheckpointer extends PostgresSaver {
  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const runMetadata = config.metadata ?? {};
    const stamp: Record<string, unknown> = {};
    for (const key of RUN_METADATA_KEYS) if (runMetadata[key] !== undefined) stamp[key] = runMetadata[key];
    return super.put(config, checkpoint, { ...metadata, ...stamp } as CheckpointMetadata, newVersions);
  }
}
