import type { JsonObject } from "./json.js";

/** An assistant as services return it: the fields of its active version. */
export interface Assistant {
  assistantId: string;
  graphId: string;
  name: string;
  description: string | null;
  config: JsonObject;
  context: JsonObject;
  metadata: JsonObject;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  /** The encryption context its metadata and context were sealed with; null: stored in clear (services/field-encryption.ts). */
  encryptionContext?: JsonObject | null;
}

/** One saved version: the assistant's fields as they were when it was created. */
export type AssistantVersion = Omit<Assistant, "updatedAt">;

export type SortOrder = "asc" | "desc";
export const ASSISTANT_SORT_FIELDS = ["assistant_id", "graph_id", "name", "created_at", "updated_at"] as const;
export type AssistantSortField = (typeof ASSISTANT_SORT_FIELDS)[number];

/** Metadata marking the assistant Hangar creates for every deployed graph. */
export const SYSTEM_CREATOR = "system";
