import type { EntityManager, SelectQueryBuilder } from "typeorm";
import type { SortOrder } from "../../domain/assistant.js";
import type { JsonObject } from "../../domain/json.js";
import type { Thread, ThreadSortField, ThreadStatus } from "../../domain/thread.js";
import { ThreadEntity } from "../entities/thread.entity.js";

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
  thread_id: "t.threadId",
  status: "t.status",
  created_at: "t.createdAt",
  updated_at: "t.updatedAt",
  state_updated_at: "t.stateUpdatedAt",
};

/** Filtered threads page; ties broken by id so pages are stable. Reads only, locks nothing. */
export function searchThreads(
  manager: EntityManager,
  filter: ThreadFilter,
  page: { limit: number; offset: number; sortBy: ThreadSortField; sortOrder: SortOrder },
): Promise<Thread[]> {
  const direction = page.sortOrder === "asc" ? "ASC" : "DESC";
  const query = filterThreads(manager, filter).orderBy(SORT_COLUMNS[page.sortBy], direction);
  if (page.sortBy !== "thread_id") query.addOrderBy("t.threadId", direction);
  return query.offset(page.offset).limit(page.limit).getMany();
}

export function countThreads(manager: EntityManager, filter: ThreadFilter): Promise<number> {
  return filterThreads(manager, filter).getCount();
}

function filterThreads(manager: EntityManager, filter: ThreadFilter): SelectQueryBuilder<Thread> {
  const query = manager.createQueryBuilder(ThreadEntity, "t");
  if (filter.metadata !== undefined) {
    query.andWhere("t.metadata @> CAST(:metadata AS jsonb)", { metadata: JSON.stringify(filter.metadata) });
  }
  if (filter.metadataAnyOf !== undefined) {
    query.andWhere("t.metadata @> ANY(CAST(:metadataAnyOf AS jsonb[]))", {
      metadataAnyOf: filter.metadataAnyOf.map((alternative) => JSON.stringify(alternative)),
    });
  }
  if (filter.values !== undefined) {
    query.andWhere(`t."values" @> CAST(:values AS jsonb)`, { values: JSON.stringify(filter.values) });
  }
  if (filter.status !== undefined) query.andWhere("t.status = :status", { status: filter.status });
  if (filter.ids !== undefined) query.andWhere("t.thread_id = ANY(:ids)", { ids: filter.ids });
  if (filter.scope !== undefined) query.andWhere("t.metadata @> CAST(:scope AS jsonb)", { scope: JSON.stringify(filter.scope) });
  return query;
}
