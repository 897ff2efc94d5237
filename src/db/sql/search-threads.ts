import type { EntityManager } from "typeorm";
import type { SortOrder } from "../../domain/assistant.js";
import type { JsonObject } from "../../domain/json.js";
import type { Thread, ThreadSortField, ThreadStatus } from "../../domain/thread.js";
import { runStatement } from "../run-statement.js";
import { jsonParameter } from "./json-parameter.js";
import { SearchConditions } from "./search-conditions.js";
import { THREAD_COLUMNS, threadFromRow, type ThreadRow } from "./thread-rows.js";

export interface ThreadFilter {
  metadata?: JsonObject;
  /** Metadata containing at least one of these objects (each alternative matched as `metadata`). */
  metadataAnyOf?: JsonObject[];
  values?: JsonObject;
  status?: ThreadStatus;
  ids?: string[];
  /** The caller's authorization scope: containment its metadata must satisfy (services/access-scope.ts). */
  scope?: Record<string, unknown>;
}

const SORT_COLUMNS: Record<ThreadSortField, string> = {
  thread_id: "thread_id",
  status: "status",
  created_at: "created_at",
  updated_at: "updated_at",
  state_updated_at: "state_updated_at",
};

/** Filtered threads page; ties broken by id so pages are stable. Reads only, locks nothing. */
export async function searchThreads(
  manager: EntityManager,
  filter: ThreadFilter,
  page: { limit: number; offset: number; sortBy: ThreadSortField; sortOrder: SortOrder },
): Promise<Thread[]> {
  const conditions = filterThreads(filter);
  const order = conditions.orderBy(SORT_COLUMNS[page.sortBy], page.sortOrder, "thread_id");
  const { rows } = await runStatement<ThreadRow>(
    manager,
    `SELECT ${THREAD_COLUMNS} FROM threads ${conditions.where()} ORDER BY ${order} ${conditions.page(page)}`,
    conditions.values,
  );
  return rows.map(threadFromRow);
}

export async function countThreads(manager: EntityManager, filter: ThreadFilter): Promise<number> {
  const conditions = filterThreads(filter);
  const { rows } = await runStatement<{ count: number }>(manager, `SELECT count(*)::int AS count FROM threads ${conditions.where()}`, conditions.values);
  return rows[0]!.count;
}

function filterThreads(filter: ThreadFilter): SearchConditions {
  const conditions = new SearchConditions();
  if (filter.metadata !== undefined) conditions.add((p) => `metadata @> CAST(${p} AS jsonb)`, jsonParameter(filter.metadata));
  if (filter.metadataAnyOf !== undefined) {
    const alternatives = filter.metadataAnyOf.map((alternative) => JSON.stringify(alternative));
    conditions.add((p) => `metadata @> ANY(CAST(${p} AS jsonb[]))`, alternatives);
  }
  if (filter.values !== undefined) conditions.add((p) => `"values" @> CAST(${p} AS jsonb)`, jsonParameter(filter.values));
  if (filter.status !== undefined) conditions.add((p) => `status = ${p}`, filter.status);
  if (filter.ids !== undefined) conditions.add((p) => `thread_id = ANY(CAST(${p} AS uuid[]))`, filter.ids);
  conditions.addScope(filter.scope);
  return conditions;
}
