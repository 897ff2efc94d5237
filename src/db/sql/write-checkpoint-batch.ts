import type pg from "pg";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";
import { commitFlushCondition } from "./commit-flush.js";

/** One `put`: a checkpoint row and the channel values new in it. */
export interface CheckpointPut {
  kind: "checkpoint";
  threadId: string;
  checkpointNs: string;
  checkpointId: string;
  parentId: string | undefined;
  /** JSON text of the checkpoint without channel_values, and of its metadata. */
  checkpointJson: string;
  metadataJson: string;
  blobs: Array<{ channel: string; version: string; type: string; blob: Buffer | null }>;
}

/** One `putWrites`: a task's pending writes against a checkpoint. */
export interface CheckpointWritesPut {
  kind: "writes";
  threadId: string;
  checkpointNs: string;
  checkpointId: string;
  taskId: string;
  /** The task's path (LangGraph's taskPath; '' when it gave none): pending writes are read back in its order. */
  taskPath: string;
  /** Special channels (errors, interrupts...) replace an earlier row; other writes keep the first. */
  replaces: boolean;
  writes: Array<{ idx: number; channel: string; type: string; blob: Buffer }>;
}

export type CheckpointBatchItem = CheckpointPut | CheckpointWritesPut;

const WRITE_CHECKPOINT_BATCH = preparedStatement(
  "write_checkpoint_batch",
  `WITH blobs AS (
     INSERT INTO checkpoint_blobs (thread_id, checkpoint_ns, channel, version, type, blob)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bytea[])
     ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING
   ), w AS (
     SELECT * FROM unnest($7::text[], $8::text[], $9::text[], $10::text[], $11::int[], $12::text[], $13::text[], $14::bytea[], $15::bool[], $16::text[])
       AS w (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob, replaces, task_path)
   ), kept_writes AS (
     INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob, task_path)
     SELECT thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob, task_path FROM w WHERE NOT replaces
     ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) DO NOTHING
   ), replaced_writes AS (
     INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob, task_path)
     SELECT thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob, task_path FROM w WHERE replaces
     ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
     DO UPDATE SET channel = EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob, task_path = EXCLUDED.task_path
   )
   INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
   SELECT c.thread_id, c.checkpoint_ns, c.checkpoint_id, c.parent_id, c.checkpoint::jsonb, c.metadata::jsonb
   FROM unnest($17::text[], $18::text[], $19::text[], $20::text[], $21::text[], $22::text[])
     AS c (thread_id, checkpoint_ns, checkpoint_id, parent_id, checkpoint, metadata)
   WHERE ${commitFlushCondition("$23")}
   ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id)
   DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata`,
);

/**
 * Writes the puts and putWrites of any number of runs in ONE statement, with the checkpointer's
 * conflict rules (db/checkpointer.ts): channel values are immutable per version (DO NOTHING), a checkpoint written
 * again replaces its row, pending writes keep the first row unless they are special channels.
 *
 * A statement may not update one row twice, so rows are merged here first, applying the items
 * in order as sequential statements would (the last checkpoint wins; a kept write never replaces
 * one written before it). The three tables have no foreign keys, so the order of the inserts
 * inside the statement does not matter.
 *
 * `awaitFlush` false: the commit does not wait for the WAL flush (commit-flush.ts), for a batch
 * whose every write belongs to a run that settles after it (durability `async` / `exit`).
 */
export async function writeCheckpointBatch(
  pool: pg.Pool | pg.PoolClient,
  batch: readonly CheckpointBatchItem[],
  { awaitFlush }: { awaitFlush: boolean },
): Promise<void> {
  const blobRows: Array<[string, string, string, string, string, Buffer | null]> = [];
  const writeRows = new Map<string, [string, string, string, string, number, string, string, Buffer, boolean, string]>();
  const checkpointRows = new Map<string, [string, string, string, string | null, string, string]>();
  for (const item of batch) {
    if (item.kind === "checkpoint") {
      for (const blob of item.blobs) blobRows.push([item.threadId, item.checkpointNs, blob.channel, blob.version, blob.type, blob.blob]);
      checkpointRows.set(`${item.threadId}\0${item.checkpointNs}\0${item.checkpointId}`, [
        item.threadId,
        item.checkpointNs,
        item.checkpointId,
        item.parentId ?? null,
        item.checkpointJson,
        item.metadataJson,
      ]);
      continue;
    }
    for (const write of item.writes) {
      const key = `${item.threadId}\0${item.checkpointNs}\0${item.checkpointId}\0${item.taskId}\0${write.idx}`;
      if (!item.replaces && writeRows.has(key)) continue;
      writeRows.set(key, [item.threadId, item.checkpointNs, item.checkpointId, item.taskId, write.idx, write.channel, write.type, write.blob, item.replaces, item.taskPath]);
    }
  }
  const column = (rows: readonly unknown[][], index: number) => rows.map((row) => row[index]);
  const writes = [...writeRows.values()];
  const checkpoints = [...checkpointRows.values()];
  await runStatement(pool, WRITE_CHECKPOINT_BATCH, [
    ...[0, 1, 2, 3, 4, 5].map((index) => column(blobRows, index)),
    ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((index) => column(writes, index)),
    ...[0, 1, 2, 3, 4, 5].map((index) => column(checkpoints, index)),
    awaitFlush,
  ]);
}
