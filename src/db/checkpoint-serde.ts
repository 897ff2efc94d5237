import type { RunnableConfig } from "@langchain/core/runnables";
import {
  TASKS,
  WRITES_IDX_MAP,
  compareWritesSortKeys,
  maxChannelVersion,
  writesSortKey,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  type PendingWrite,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import type { CheckpointBlobCodec } from "./checkpoint-encryption.js";
import type { CheckpointPut, CheckpointWritesPut } from "./sql/write-checkpoint-batch.js";
import type { CheckpointRow } from "./sql/select-checkpoints.js";
import type { PendingSendsRow } from "./sql/select-pending-sends.js";

/**
 * Between LangGraph's values and the checkpoint tables' rows, through the saver's public `serde`
 * (the JsonPlusSerializer by default): each channel value and pending write is stored as the
 * serializer's (type, bytes), sealed by the deployment's encryption module when it has one
 * (db/checkpoint-encryption.ts); the checkpoint itself, without its channel values, and its metadata
 * as jsonb, so that history can be filtered by metadata (`@>`) and rollback can find a run's
 * checkpoints by metadata.run_id.
 */

const TEXT_DECODER = new TextDecoder();

/** A channel whose value was cleared in this step: a row without bytes, skipped when reading. */
const EMPTY = "empty";

/** The rows of one `put`. */
export async function dumpCheckpoint(
  serde: SerializerProtocol,
  blobs: CheckpointBlobCodec,
  config: RunnableConfig,
  checkpoint: Checkpoint,
  metadata: CheckpointMetadata,
  newVersions: ChannelVersions,
): Promise<CheckpointPut> {
  const { threadId, checkpointNs, checkpointId: parentId } = addressOf(config);
  if (threadId === undefined) throw new Error(`Missing "thread_id" in config.configurable`);
  const { channel_values: values, ...withoutValues } = checkpoint;
  const [channelBlobs, [, serializedMetadata]] = await Promise.all([
    Promise.all(
      Object.entries(newVersions).map(async ([channel, version]) => {
        if (!(channel in values)) return { channel, version: String(version), type: EMPTY, blob: null };
        return { channel, version: String(version), ...(await blobs.dump("channel_value", values[channel as keyof typeof values])) };
      }),
    ),
    serde.dumpsTyped(metadata),
  ]);
  return {
    kind: "checkpoint",
    threadId,
    checkpointNs,
    checkpointId: checkpoint.id,
    parentId,
    checkpointJson: JSON.stringify(withoutValues),
    // jsonb refuses the NUL character; the serializer's JSON text is stored as jsonb as it is.
    metadataJson: TEXT_DECODER.decode(serializedMetadata).replace(/\0/g, ""),
    blobs: channelBlobs,
  };
}

/** The rows of one `putWrites`. */
export async function dumpWrites(
  blobs: CheckpointBlobCodec,
  config: RunnableConfig,
  writes: PendingWrite[],
  taskId: string,
  taskPath: string,
): Promise<CheckpointWritesPut> {
  const { threadId, checkpointNs, checkpointId } = addressOf(config);
  if (threadId === undefined) throw new Error(`Missing "thread_id" in config.configurable`);
  if (checkpointId === undefined) throw new Error(`Missing "checkpoint_id" in config.configurable`);
  return {
    kind: "writes",
    threadId,
    checkpointNs,
    checkpointId,
    taskId,
    taskPath,
    // Special channels (errors, interrupts...) have fixed indexes and replace; others keep the first.
    replaces: writes.every(([channel]) => channel in WRITES_IDX_MAP),
    writes: await Promise.all(
      writes.map(async ([channel, value], index) => ({
        idx: WRITES_IDX_MAP[channel] ?? index,
        channel,
        ...(await blobs.dump("pending_write", value)),
      })),
    ),
  };
}

/**
 * A row as a CheckpointTuple. `pendingSends`: for a checkpoint of format v < 4, the Sends its
 * parent has as pending writes (they became the TASKS channel in v4); `nextVersion` numbers it.
 */
export async function loadCheckpointTuple(
  serde: SerializerProtocol,
  blobs: CheckpointBlobCodec,
  row: CheckpointRow,
  pendingSends: PendingSendsRow | undefined,
  nextVersion: () => number | string,
): Promise<CheckpointTuple> {
  const address = (checkpointId: string) => ({
    configurable: { thread_id: row.thread_id, checkpoint_ns: row.checkpoint_ns, checkpoint_id: checkpointId },
  });
  const channelVersions = { ...(row.checkpoint.channel_versions ?? {}) };
  const [channelValues, metadata, pendingWrites, sends] = await Promise.all([
    loadChannelValues(blobs, row),
    serde.loadsTyped("json", row.metadata) as Promise<CheckpointMetadata>,
    loadPendingWrites(blobs, row),
    pendingSends ? Promise.all(pendingSends.types.map((type, index) => blobs.load("pending_write", type, pendingSends.blobs[index]!))) : null,
  ]);
  if (sends) {
    channelValues[TASKS] = sends;
    const versions = Object.values(channelVersions);
    channelVersions[TASKS] = versions.length > 0 ? maxChannelVersion(...versions) : nextVersion();
  }
  return {
    config: address(row.checkpoint_id),
    checkpoint: {
      ...row.checkpoint,
      channel_versions: channelVersions,
      versions_seen: (row.checkpoint.versions_seen as Checkpoint["versions_seen"] | undefined) ?? {},
      channel_values: channelValues,
    } as Checkpoint,
    metadata,
    parentConfig: row.parent_checkpoint_id ? address(row.parent_checkpoint_id) : undefined,
    pendingWrites,
  };
}

async function loadChannelValues(blobs: CheckpointBlobCodec, row: CheckpointRow): Promise<Record<string, unknown>> {
  const channels = row.blob_channels ?? [];
  const loaded = await Promise.all(channels.map((_, index) => blobs.load("channel_value", row.blob_types![index]!, row.blob_values![index]!)));
  return Object.fromEntries(channels.map((channel, index) => [channel, loaded[index]]));
}

/** In writesSortKey order, the order live execution applies a step's writes in (BaseCheckpointSaver.putWrites). */
async function loadPendingWrites(blobs: CheckpointBlobCodec, row: CheckpointRow): Promise<CheckpointPendingWrite[]> {
  const taskIds = row.write_task_ids ?? [];
  const order = taskIds
    .map((taskId, index) => ({ index, key: writesSortKey(row.write_task_paths![index]!, taskId, row.write_idxs![index]!) }))
    .sort((a, b) => compareWritesSortKeys(a.key, b.key))
    .map(({ index }) => index);
  return Promise.all(
    order.map(async (index): Promise<CheckpointPendingWrite> => [
      taskIds[index]!,
      row.write_channels![index]!,
      await blobs.load("pending_write", row.write_types![index]!, row.write_values![index]!),
    ]),
  );
}

/** thread_id, checkpoint_ns ('' when absent) and checkpoint_id of a config. */
export function addressOf(config: RunnableConfig): { threadId?: string; checkpointNs: string; checkpointId?: string } {
  const { thread_id: threadId, checkpoint_ns: checkpointNs, checkpoint_id: checkpointId } = config.configurable ?? {};
  return {
    threadId: threadId === undefined || threadId === null ? undefined : String(threadId),
    checkpointNs: typeof checkpointNs === "string" ? checkpointNs : "",
    checkpointId: typeof checkpointId === "string" && checkpointId !== "" ? checkpointId : undefined,
  };
}
