import type { EntityManager } from "typeorm";
import type { TraceRunRecord } from "../../domain/trace-run.js";
import { TRACE_RECORD_SELECT, traceRecordFromRow, type TraceRecordRow } from "./trace-run-columns.js";
import { runStatement } from "../run-statement.js";

/**
 * The stored records of the given runs, row-locked (FOR UPDATE) until the caller's transaction
 * ends, so a concurrent post or patch of the same run waits and then merges onto our result.
 * Locks are taken in id order (the lock step sits above the sort), which is the order every
 * ingest batch uses, so two batches sharing runs cannot deadlock on them.
 */
export async function lockTraceRuns(manager: EntityManager, ids: readonly string[]): Promise<TraceRunRecord[]> {
  if (ids.length === 0) return [];
  const { rows } = await runStatement<TraceRecordRow>(
    manager,
    `SELECT ${TRACE_RECORD_SELECT} FROM trace_runs WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
    [ids],
  );
  return rows.map(traceRecordFromRow);
}
