import type { EntityManager, SelectQueryBuilder } from "typeorm";
import type { Assistant, AssistantSortField, SortOrder } from "../../domain/assistant.js";
import type { JsonObject } from "../../domain/json.js";
import { AssistantEntity } from "../entities/assistant.entity.js";

export interface AssistantFilter {
  graphId?: string;
  /** Case-insensitive substring of the name. */
  name?: string;
  /** JSONB containment (@>) on metadata. */
  metadata?: JsonObject;
  /** null or {} → only unconfigured assistants (config null or {}); an object → containment. */
  config?: JsonObject | null;
  /** The caller's authorization scope: containment its metadata must satisfy (services/access-scope.ts). */
  scope?: Record<string, unknown>;
}

const SORT_COLUMNS: Record<AssistantSortField, string> = {
  assistant_id: "a.assistantId",
  graph_id: "a.graphId",
  name: "a.name",
  created_at: "a.createdAt",
  updated_at: "a.updatedAt",
};

/** Filtered assistants page; ties broken by id so pages are stable. Reads only, locks nothing. */
export function searchAssistants(
  manager: EntityManager,
  filter: AssistantFilter,
  page: { limit: number; offset: number; sortBy: AssistantSortField; sortOrder: SortOrder },
): Promise<Assistant[]> {
  const direction = page.sortOrder === "asc" ? "ASC" : "DESC";
  const query = filterAssistants(manager, filter).orderBy(SORT_COLUMNS[page.sortBy], direction);
  if (page.sortBy !== "assistant_id") query.addOrderBy("a.assistantId", direction);
  return query.offset(page.offset).limit(page.limit).getMany();
}

export function countAssistants(manager: EntityManager, filter: AssistantFilter): Promise<number> {
  return filterAssistants(manager, filter).getCount();
}

function filterAssistants(manager: EntityManager, filter: AssistantFilter): SelectQueryBuilder<Assistant> {
  const query = manager.createQueryBuilder(AssistantEntity, "a");
  if (filter.graphId !== undefined) query.andWhere("a.graph_id = :graphId", { graphId: filter.graphId });
  if (filter.name !== undefined) {
    query.andWhere("a.name ILIKE :name", { name: `%${escapeLike(filter.name)}%` });
  }
  if (filter.metadata !== undefined) {
    query.andWhere("a.metadata @> CAST(:metadata AS jsonb)", { metadata: JSON.stringify(filter.metadata) });
  }
  if (filter.scope !== undefined) query.andWhere("a.metadata @> CAST(:scope AS jsonb)", { scope: JSON.stringify(filter.scope) });
  if (filter.config !== undefined) {
    if (filter.config === null || Object.keys(filter.config).length === 0) {
      query.andWhere("(a.config IS NULL OR a.config = '{}'::jsonb)");
    } else {
      query.andWhere("a.config @> CAST(:config AS jsonb)", { config: JSON.stringify(filter.config) });
    }
  }
  return query;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
