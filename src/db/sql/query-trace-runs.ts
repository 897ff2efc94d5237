import { GRAPH_INTERRUPT_SQL_PATTERN } from "../../domain/trace-run-status.js";
import type { EntityManager } from "typeorm";
import type { JsonObject } from "../../domain/json.js";
import type { TraceRun } from "../../domain/trace-run.js";
import { TRACE_RUN_SELECT, traceRunFromRow, type TraceRunRow } from "./trace-run-columns.js";
import { runStatement } from "../run-statement.js";

/** Run filters; every given field must hold. Times are canonical UTC strings. */
export interface TraceRunFilter {
  ids?: string[];
  traceId?: string;
  parentRunId?: string;
  isRoot?: boolean;
  runTypes?: string[];
  names?: string[];
  /** Case-insensitive substring of the name (LIKE wildcards in it match literally). */
  nameContains?: string;
  modelName?: string;
  provider?: string;
  hasError?: boolean;
  /** Like hasError, but a LangGraph interrupt recorded as the run's error is no failure (domain/trace-run-status.ts). */
  hasFailed?: boolean;
  hangarRunId?: string;
  threadId?: string;
  assistantId?: string;
  sessionNames?: string[];
  sessionIds?: string[];
  /** Inclusive lower bound on start_time. */
  startTimeFrom?: string;
  /** Exclusive upper bound on start_time. */
  startTimeTo?: string;
  /** extra.metadata must contain this object (jsonb @>). */
  metadata?: JsonObject;
  /** extra.metadata must contain at least one of these objects. */
  metadataAnyOf?: JsonObject[];
  /** Every one of these tags (GIN index on tags). */
  tags?: string[];
  /** At least one of these tags. */
  tagsAny?: string[];
  /**
   * A feedback with this key (and, when given, a score within the bounds: min/max inclusive,
   * above/below exclusive) on the run itself, or with `inTrace` on any run of its trace (a trace
   * search finds a trace whose LLM call was judged).
   */
  feedback?: { key: string; scoreMin?: number; scoreMax?: number; scoreAbove?: number; scoreBelow?: number; inTrace?: boolean };
}

export interface TraceRunPageRequest {
  limit: number;
  order: "asc" | "desc";
  /** Keyset position: rows strictly after this (start_time, id) in the given order. */
  after?: { startTime: string; id: string };
  offset?: number;
}

/**
 * A page of runs ordered by (start_time, id), which the trace_runs_start_time_idx index serves;
 * the id breaks ties so pages are stable. Reads only, locks nothing.
 */
export async function queryTraceRuns(
  manager: EntityManager,
  filter: TraceRunFilter,
  page: TraceRunPageRequest,
): Promise<TraceRun[]> {
  const params: unknown[] = [];
  const where = traceRunConditions(filter, params);
  const direction = page.order === "asc" ? "ASC" : "DESC";
  if (page.after) {
    params.push(page.after.startTime, page.after.id);
    const comparison = page.order === "asc" ? ">" : "<";
    where.push(`(start_time, id) ${comparison} ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
  }
  params.push(page.limit, page.offset ?? 0);
  const { rows } = await runStatement<TraceRunRow>(
    manager,
    `SELECT ${TRACE_RUN_SELECT} FROM trace_runs
     ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
     ORDER BY start_time ${direction}, id ${direction}
     LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return rows.map(traceRunFromRow);
}

/** SQL conditions for a filter; values are appended to params and referenced as $n. */
export function traceRunConditions(filter: TraceRunFilter, params: unknown[]): string[] {
  const conditions: string[] = [];
  const add = (sql: (ref: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  if (filter.ids) add((ref) => `id = ANY(${ref}::uuid[])`, filter.ids);
  if (filter.traceId) add((ref) => `trace_id = ${ref}::uuid`, filter.traceId);
  if (filter.parentRunId) add((ref) => `parent_run_id = ${ref}::uuid`, filter.parentRunId);
  if (filter.isRoot !== undefined) conditions.push(filter.isRoot ? "parent_run_id IS NULL" : "parent_run_id IS NOT NULL");
  if (filter.runTypes) add((ref) => `run_type = ANY(${ref}::text[])`, filter.runTypes);
  if (filter.names) add((ref) => `name = ANY(${ref}::text[])`, filter.names);
  if (filter.nameContains) add((ref) => `name ILIKE '%' || ${ref} || '%'`, filter.nameContains.replace(/[\\%_]/g, (char) => `\\${char}`));
  if (filter.modelName) add((ref) => `model_name = ${ref}`, filter.modelName);
  if (filter.provider) add((ref) => `provider = ${ref}`, filter.provider);
  if (filter.hasError !== undefined) conditions.push(filter.hasError ? "error IS NOT NULL" : "error IS NULL");
  if (filter.hasFailed !== undefined) {
    add((ref) => (filter.hasFailed ? `(error IS NOT NULL AND error !~ ${ref})` : `(error IS NULL OR error ~ ${ref})`), GRAPH_INTERRUPT_SQL_PATTERN);
  }
  if (filter.hangarRunId) add((ref) => `hangar_run_id = ${ref}::uuid`, filter.hangarRunId);
  if (filter.threadId) add((ref) => `thread_id = ${ref}::uuid`, filter.threadId);
  if (filter.assistantId) add((ref) => `assistant_id = ${ref}::uuid`, filter.assistantId);
  if (filter.sessionNames) add((ref) => `session_name = ANY(${ref}::text[])`, filter.sessionNames);
  if (filter.sessionIds) add((ref) => `session_id = ANY(${ref}::uuid[])`, filter.sessionIds);
  if (filter.startTimeFrom) add((ref) => `start_time >= ${ref}::timestamptz`, filter.startTimeFrom);
  if (filter.startTimeTo) add((ref) => `start_time < ${ref}::timestamptz`, filter.startTimeTo);
  // Spelled exactly like the GIN index expression so the planner can use it.
  if (filter.metadata) add((ref) => `(extra -> 'metadata') @> ${ref}::jsonb`, JSON.stringify(filter.metadata));
  if (filter.metadataAnyOf) {
    // One containment per alternative, OR-ed: each can use the GIN index (a BitmapOr), which
    // `@> ANY(array)` cannot.
    const alternatives = filter.metadataAnyOf.map((alternative) => {
      params.push(JSON.stringify(alternative));
      return `(extra -> 'metadata') @> $${params.length}::jsonb`;
    });
    conditions.push(`(${alternatives.join(" OR ")})`);
  }
  if (filter.tags) add((ref) => `tags @> ${ref}::text[]`, filter.tags);
  if (filter.tagsAny) add((ref) => `tags && ${ref}::text[]`, filter.tagsAny);
  if (filter.feedback) conditions.push(feedbackCondition(filter.feedback, params));
  return conditions;
}

/** EXISTS over trace_feedback's run or trace index: one probe per candidate run. */
function feedbackCondition(feedback: NonNullable<TraceRunFilter["feedback"]>, params: unknown[]): string {
  params.push(feedback.key);
  const parts = [feedback.inTrace ? `f.trace_id = trace_runs.trace_id` : `f.run_id = trace_runs.id`, `f.key = $${params.length}`];
  const bounds = [
    [feedback.scoreMin, ">="],
    [feedback.scoreMax, "<="],
    [feedback.scoreAbove, ">"],
    [feedback.scoreBelow, "<"],
  ] as const;
  for (const [bound, operator] of bounds) {
    if (bound === undefined) continue;
    params.push(bound);
    parts.push(`f.score ${operator} $${params.length}::numeric`);
  }
  return `EXISTS (SELECT 1 FROM trace_feedback f WHERE ${parts.join(" AND ")})`;
}
