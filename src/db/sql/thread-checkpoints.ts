import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

// The checkpointer's tables (db/checkpointer.ts), all keyed by thread_id (text). Names are constants, never input.
const CHECKPOINT_TABLES = {
  checkpoints: "thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata",
  checkpoint_blobs: "thread_id, checkpoint_ns, channel, version, type, blob",
  checkpoint_writes: "thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob, task_path",
} as const;

/** Copies every checkpoint row of one thread to another (inside the caller's transaction). */
export async function copyThreadCheckpoints(manager: EntityManager, fromThreadId: string, toThreadId: string) {
  for (const [table, columns] of Object.entries(CHECKPOINT_TABLES)) {
    const selected = columns.replace(/^thread_id/, "$2::text");
    await runStatement(manager, `INSERT INTO ${table} (${columns}) SELECT ${selected} FROM ${table} WHERE thread_id = $1`, [
      fromThreadId,
      toThreadId,
    ]);
  }
}

/** Deletes a thread's checkpoints, blobs and pending writes (inside the caller's transaction). */
export async function deleteThreadCheckpoints(manager: EntityManager, threadIds: string[]) {
  for (const table of Object.keys(CHECKPOINT_TABLES)) {
    await runStatement(manager, `DELETE FROM ${table} WHERE thread_id = ANY($1::text[])`, [threadIds]);
  }
}

/** Deletes every checkpoint, blob and pending write of every thread (inside the caller's transaction). */
export async function deleteAllCheckpoints(manager: EntityManager) {
  for (const table of Object.keys(CHECKPOINT_TABLES)) {
    await runStatement(manager, `DELETE FROM ${table}`);
  }
}
