import type { EntityManager } from "typeorm";
import type { SortOrder } from "../../domain/assistant.js";
import type { Cron, CronSortField } from "../../domain/cron.js";
import { runStatement } from "../run-statement.js";
import { CRON_COLUMNS, cronFromRow, type CronRow } from "./cron-rows.js";
import { jsonParameter } from "./json-parameter.js";
import { SearchConditions } from "./search-conditions.js";

export interface CronFilter {
  assistantId?: string;
  threadId?: string;
  enabled?: boolean;
  /** Containment the cron's metadata must satisfy (the search's own filter). */
  metadata?: Record<string, unknown>;
  /** The caller's authorization scope: containment its metadata must satisfy (services/access-scope.ts). */
  scope?: Record<string, unknown>;
}

const SORT_COLUMNS: Record<CronSortField, string> = {
  cron_id: "cron_id",
  assistant_id: "assistant_id",
  thread_id: "thread_id",
  created_at: "created_at",
  updated_at: "updated_at",
  next_run_date: "next_run_date",
};

/** Filtered crons page; ties broken by id so pages are stable. Reads only, locks nothing. */
export async function searchCrons(
  manager: EntityManager,
  filter: CronFilter,
  page: { limit: number; offset: number; sortBy: CronSortField; sortOrder: SortOrder },
): Promise<Cron[]> {
  const conditions = filterCrons(filter);
  // NULLs (stateless crons' thread, finished crons' next run) sort last either way.
  const order = conditions.orderBy(SORT_COLUMNS[page.sortBy], page.sortOrder, "cron_id", { nullsLast: true });
  const { rows } = await runStatement<CronRow>(
    manager,
    `SELECT ${CRON_COLUMNS} FROM crons ${conditions.where()} ORDER BY ${order} ${conditions.page(page)}`,
    conditions.values,
  );
  return rows.map(cronFromRow);
}

export async function countCrons(manager: EntityManager, filter: CronFilter): Promise<number> {
  const conditions = filterCrons(filter);
  const { rows } = await runStatement<{ count: number }>(manager, `SELECT count(*)::int AS count FROM crons ${conditions.where()}`, conditions.values);
  return rows[0]!.count;
}

function filterCrons(filter: CronFilter): SearchConditions {
  const conditions = new SearchConditions();
  if (filter.assistantId !== undefined) conditions.add((p) => `assistant_id = ${p}`, filter.assistantId);
  if (filter.threadId !== undefined) conditions.add((p) => `thread_id = ${p}`, filter.threadId);
  if (filter.enabled !== undefined) conditions.add((p) => `enabled = ${p}`, filter.enabled);
  if (filter.metadata !== undefined) conditions.add((p) => `metadata @> CAST(${p} AS jsonb)`, jsonParameter(filter.metadata));
  conditions.addScope(filter.scope);
  return conditions;
}
