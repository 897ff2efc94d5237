import type pg from "pg";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";

/** What a read of the checkpointer asks for; every field present narrows it. */
export interface CheckpointQuery {
  threadId?: string;
  /** Omitted: every namespace (list); getTuple always names one. */
  checkpointNs?: string;
  checkpointId?: string;
  /** Checkpoints whose metadata contains this object (jsonb `@>`). */
  metadata?: Record<string, unknown>;
  /** Checkpoints older than this id (ids are uuid6, which sort by time). */
  before?: string;
  limit?: number;
}

/**
 * A checkpoint row with the channel values its `channel_versions` point at and the pending
 * writes made against it, still serialized (db/checkpoint-serde.ts loads them). Arrays of one
 * aggregate are in the same order; pending writes come in no particular order.
 */
export interface CheckpointRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  /** The checkpoint without channel_values (jsonb, parsed by pg). */
  checkpoint: { v: number; channel_versions?: Record<string, string | number> } & Record<string, unknown>;
  /** Metadata as JSON text, for the serializer to revive. */
  metadata: string;
  blob_channels: string[] | null;
  blob_types: string[] | null;
  blob_values: Array<Buffer | null> | null;
  write_task_ids: string[] | null;
  write_task_paths: string[] | null;
  write_idxs: number[] | null;
  write_channels: string[] | null;
  write_types: string[] | null;
  write_values: Buffer[] | null;
}

const FILTERS = [
  { key: "threadId", sql: (n: number) => `cp.thread_id = $${n}` },
  { key: "checkpointNs", sql: (n: number) => `cp.checkpoint_ns = $${n}` },
  { key: "checkpointId", sql: (n: number) => `cp.checkpoint_id = $${n}` },
  { key: "metadata", sql: (n: number) => `cp.metadata @> $${n}::jsonb` },
  { key: "before", sql: (n: number) => `cp.checkpoint_id < $${n}` },
  { key: "limit", sql: (n: number) => `LIMIT $${n}` },
] as const;

/**
 * The statement for one combination of filters present (at most 64 fixed texts, each prepared
 * once per connection: getTuple's two reads run on every run that resumes a thread).
 * Channel values marked "empty" (a channel cleared in that step) are left out: they hold nothing.
 */
function statementFor(mask: number) {
  const where: string[] = [];
  let limit = "";
  let parameter = 0;
  FILTERS.forEach((filter, bit) => {
    if ((mask & (1 << bit)) === 0) return;
    parameter += 1;
    if (filter.key === "limit") limit = filter.sql(parameter);
    else where.push(filter.sql(parameter));
  });
  return preparedStatement(
    `select_checkpoints_${mask}`,
    `SELECT cp.thread_id, cp.checkpoint_ns, cp.checkpoint_id, cp.parent_checkpoint_id, cp.checkpoint, cp.metadata::text AS metadata,
            b.channels AS blob_channels, b.types AS blob_types, b.blobs AS blob_values,
            w.task_ids AS write_task_ids, w.task_paths AS write_task_paths, w.idxs AS write_idxs,
            w.channels AS write_channels, w.types AS write_types, w.blobs AS write_values
     FROM checkpoints cp
     CROSS JOIN LATERAL (
       SELECT array_agg(bl.channel) AS channels, array_agg(bl.type) AS types, array_agg(bl.blob) AS blobs
       FROM jsonb_each_text(cp.checkpoint -> 'channel_versions') AS v (channel, version)
       JOIN checkpoint_blobs bl
         ON bl.thread_id = cp.thread_id AND bl.checkpoint_ns = cp.checkpoint_ns
        AND bl.channel = v.channel AND bl.version = v.version
       WHERE bl.type <> 'empty'
     ) b
     CROSS JOIN LATERAL (
       SELECT array_agg(cw.task_id) AS task_ids, array_agg(cw.task_path) AS task_paths, array_agg(cw.idx) AS idxs,
              array_agg(cw.channel) AS channels, array_agg(cw.type) AS types, array_agg(cw.blob) AS blobs
       FROM checkpoint_writes cw
       WHERE cw.thread_id = cp.thread_id AND cw.checkpoint_ns = cp.checkpoint_ns AND cw.checkpoint_id = cp.checkpoint_id
     ) w
     ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}
     ORDER BY cp.checkpoint_id DESC
     ${limit}`,
  );
}

const STATEMENTS = new Map<number, ReturnType<typeof statementFor>>();

/**
 * Checkpoints newest first (by checkpoint_id), with their channel values and pending writes, in
 * one statement. Reads only; takes no locks.
 */
export async function selectCheckpoints(pool: pg.Pool | pg.PoolClient, query: CheckpointQuery): Promise<CheckpointRow[]> {
  let mask = 0;
  const values: unknown[] = [];
  FILTERS.forEach((filter, bit) => {
    const value = query[filter.key];
    if (value === undefined) return;
    mask |= 1 << bit;
    values.push(filter.key === "metadata" ? JSON.stringify(value) : value);
  });
  let statement = STATEMENTS.get(mask);
  if (!statement) STATEMENTS.set(mask, (statement = statementFor(mask)));
  const { rows } = await runStatement<CheckpointRow>(pool, statement, values);
  return rows;
}
