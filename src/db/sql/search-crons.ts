import type { EntityManager, SelectQueryBuilder } from "typeorm";
import type { SortOrder } from "../../domain/assistant.js";
import type { Cron, CronSortField } from "../../domain/cron.js";
import { CronEntity } from "../entities/cron.entity.js";

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
  cron_id: "c.cronId",
  assistant_id: "c.assistantId",
  thread_id: "c.threadId",
  created_at: "c.createdAt",
  updated_at: "c.updatedAt",
  next_run_date: "c.nextRunDate",
};

/** Filtered crons page; ties broken by id so pages are stable. Reads only, locks nothing. */
export function searchCrons(
  manager: EntityManager,
  filter: CronFilter,
  page: { limit: number; offset: number; sortBy: CronSortField; sortOrder: SortOrder },
): Promise<Cron[]> {
  const direction = page.sortOrder === "asc" ? "ASC" : "DESC";
  // NULLs (stateless crons' thread, finished crons' next run) sort last either way.
  const query = filterCrons(manager, filter).orderBy(SORT_COLUMNS[page.sortBy], direction, "NULLS LAST");
  if (page.sortBy !== "cron_id") query.addOrderBy("c.cronId", direction);
  return query.offset(page.offset).limit(page.limit).getMany();
}

export function countCrons(manager: EntityManager, filter: CronFilter): Promise<number> {
  return filterCrons(manager, filter).getCount();
}

function filterCrons(manager: EntityManager, filter: CronFilter): SelectQueryBuilder<Cron> {
  const query = manager.createQueryBuilder(CronEntity, "c");
  if (filter.assistantId !== undefined) query.andWhere("c.assistant_id = :assistantId", { assistantId: filter.assistantId });
  if (filter.threadId !== undefined) query.andWhere("c.thread_id = :threadId", { threadId: filter.threadId });
  if (filter.enabled !== undefined) query.andWhere("c.enabled = :enabled", { enabled: filter.enabled });
  if (filter.metadata !== undefined) query.andWhere("c.metadata @> CAST(:metadata AS jsonb)", { metadata: JSON.stringify(filter.metadata) });
  if (filter.scope !== undefined) query.andWhere("c.metadata @> CAST(:scope AS jsonb)", { scope: JSON.stringify(filter.scope) });
  return query;
}
