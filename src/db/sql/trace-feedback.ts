import type { EntityManager } from "typeorm";
import type { FeedbackFilter, TraceFeedback } from "../../domain/trace-feedback.js";
import { runStatement } from "../run-statement.js";

/** The feedback statements; all read or write trace_feedback only (rows cascade with their run). */

const FEEDBACK_SELECT = `id, run_id, trace_id, key, score::float8 AS score, value, comment, correction,
  source_type, source_metadata, created_at, modified_at`;

interface FeedbackRow {
  id: string;
  run_id: string;
  trace_id: string | null;
  key: string;
  score: number | null;
  value: unknown;
  comment: string | null;
  correction: unknown;
  source_type: string;
  source_metadata: Record<string, unknown>;
  created_at: Date;
  modified_at: Date;
}

function feedbackFromRow(row: FeedbackRow): TraceFeedback {
  return {
    id: row.id,
    runId: row.run_id,
    traceId: row.trace_id,
    key: row.key,
    score: row.score,
    value: row.value,
    comment: row.comment,
    correction: row.correction,
    source: { type: row.source_type, metadata: row.source_metadata },
    createdAt: row.created_at.toISOString(),
    modifiedAt: row.modified_at.toISOString(),
  };
}

/**
 * Inserts a feedback on an existing run, taking the run's trace id. Answers null when the run does
 * not exist (nothing written) and `conflict` when the id is taken; one statement, so a run deleted
 * meanwhile cannot leave an orphan (the foreign key would refuse it anyway).
 */
export async function insertTraceFeedback(
  manager: EntityManager,
  feedback: Omit<TraceFeedback, "traceId" | "createdAt" | "modifiedAt">,
): Promise<TraceFeedback | null | "conflict"> {
  const { rows } = await runStatement<FeedbackRow>(
    manager,
    `INSERT INTO trace_feedback (id, run_id, trace_id, key, score, value, comment, correction, source_type, source_metadata, created_at, modified_at)
     SELECT $1::uuid, r.id, r.trace_id, $3, $4::numeric, $5::jsonb, $6, $7::jsonb, $8, $9::jsonb, now(), now()
     FROM trace_runs r WHERE r.id = $2::uuid
     ON CONFLICT (id) DO NOTHING
     RETURNING ${FEEDBACK_SELECT}`,
    [
      feedback.id,
      feedback.runId,
      feedback.key,
      feedback.score,
      jsonOrNull(feedback.value),
      feedback.comment,
      jsonOrNull(feedback.correction),
      feedback.source.type,
      JSON.stringify(feedback.source.metadata),
    ],
  );
  if (rows[0]) return feedbackFromRow(rows[0]);
  const { affected: existing } = await runStatement(manager, `SELECT 1 FROM trace_feedback WHERE id = $1::uuid`, [feedback.id]);
  return existing > 0 ? "conflict" : null;
}

export async function getTraceFeedback(manager: EntityManager, id: string): Promise<TraceFeedback | null> {
  const { rows } = await runStatement<FeedbackRow>(manager, `SELECT ${FEEDBACK_SELECT} FROM trace_feedback WHERE id = $1::uuid`, [id]);
  return rows[0] ? feedbackFromRow(rows[0]) : null;
}

/** Oldest first (created_at, then id), so offset pages are stable. */
export async function listTraceFeedback(
  manager: EntityManager,
  filter: FeedbackFilter,
  page: { limit: number; offset: number },
): Promise<TraceFeedback[]> {
  const params: unknown[] = [];
  const where: string[] = [];
  const add = (sql: (ref: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (filter.runIds) add((ref) => `run_id = ANY(${ref}::uuid[])`, filter.runIds);
  if (filter.keys) add((ref) => `key = ANY(${ref}::text[])`, filter.keys);
  if (filter.sourceTypes) add((ref) => `source_type = ANY(${ref}::text[])`, filter.sourceTypes);
  params.push(page.limit, page.offset);
  const { rows } = await runStatement<FeedbackRow>(
    manager,
    `SELECT ${FEEDBACK_SELECT} FROM trace_feedback
     ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
     ORDER BY created_at, id LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return rows.map(feedbackFromRow);
}

/** Every feedback of each run (for DataLoaders), oldest first; runs without any are absent. */
export async function listFeedbackOfRuns(manager: EntityManager, runIds: readonly string[]): Promise<Map<string, TraceFeedback[]>> {
  const byRun = new Map<string, TraceFeedback[]>();
  if (runIds.length === 0) return byRun;
  const { rows } = await runStatement<FeedbackRow>(
    manager,
    `SELECT ${FEEDBACK_SELECT} FROM trace_feedback WHERE run_id = ANY($1::uuid[]) ORDER BY run_id, created_at, id`,
    [runIds],
  );
  for (const row of rows) {
    const list = byRun.get(row.run_id) ?? [];
    list.push(feedbackFromRow(row));
    byRun.set(row.run_id, list);
  }
  return byRun;
}

/** Sets the given columns (undefined = keep); null when the feedback does not exist. */
export async function updateTraceFeedback(
  manager: EntityManager,
  id: string,
  changes: { score?: number | null; value?: unknown; comment?: string | null; correction?: unknown },
): Promise<TraceFeedback | null> {
  const params: unknown[] = [id];
  const sets = ["modified_at = now()"];
  const set = (column: string, cast: string, value: unknown) => {
    params.push(value);
    sets.push(`${column} = $${params.length}${cast}`);
  };
  if (changes.score !== undefined) set("score", "::numeric", changes.score);
  if (changes.value !== undefined) set("value", "::jsonb", jsonOrNull(changes.value));
  if (changes.comment !== undefined) set("comment", "", changes.comment);
  if (changes.correction !== undefined) set("correction", "::jsonb", jsonOrNull(changes.correction));
  const { rows } = await runStatement<FeedbackRow>(
    manager,
    `UPDATE trace_feedback SET ${sets.join(", ")} WHERE id = $1::uuid RETURNING ${FEEDBACK_SELECT}`,
    params,
  );
  return rows[0] ? feedbackFromRow(rows[0]) : null;
}

export async function deleteTraceFeedback(manager: EntityManager, id: string): Promise<boolean> {
  const { affected } = await runStatement(manager, `DELETE FROM trace_feedback WHERE id = $1::uuid`, [id]);
  return affected > 0;
}

/** JSON null and SQL NULL are one "absent" here: a value or correction of null is no value. */
function jsonOrNull(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}
