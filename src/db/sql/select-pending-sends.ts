import type pg from "pg";
import { TASKS } from "@langchain/langgraph-checkpoint";
import { runStatement } from "../run-statement.js";

export interface PendingSendsRow {
  checkpoint_id: string;
  types: string[];
  blobs: Buffer[];
}

/**
 * The `Send`s written as pending writes (channel TASKS) against the given checkpoints, in the
 * order they were written (task id, then index). Checkpoints of format v < 4 kept them there;
 * v4 keeps them in the child checkpoint's TASKS channel, which reads of an old checkpoint
 * rebuild from this (db/checkpoint-serde.ts). Reads only.
 */
export async function selectPendingSends(pool: pg.Pool | pg.PoolClient, threadId: string, checkpointNs: string, checkpointIds: string[]): Promise<PendingSendsRow[]> {
  const { rows } = await runStatement<PendingSendsRow>(
    pool,
    `SELECT checkpoint_id, array_agg(type ORDER BY task_id, idx) AS types, array_agg(blob ORDER BY task_id, idx) AS blobs
     FROM checkpoint_writes
     WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = ANY($3::text[]) AND channel = $4
     GROUP BY checkpoint_id`,
    [threadId, checkpointNs, checkpointIds, TASKS],
  );
  return rows;
}
