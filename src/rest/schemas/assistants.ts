import { z } from "zod";
import { MAX_INT4 } from "../../domain/input-bounds.js";
import { ASSISTANT_SORT_FIELDS } from "../../domain/assistant.js";
import { JsonObject, Limit, Offset, optional, QueryBoolean, SortOrder } from "./common.js";

/** Fields `select` may name on POST /assistants/search (the SDK's AssistantSelectField). */
export const ASSISTANT_SELECT_FIELDS = [
  "assistant_id",
  "graph_id",
  "name",
  "description",
  "config",
  "context",
  "created_at",
  "updated_at",
  "metadata",
  "version",
] as const;

export const AssistantCreate = z.object({
  graph_id: z.string(),
  assistant_id: optional(z.string()),
  if_exists: optional(z.enum(["raise", "do_nothing"])),
  name: optional(z.string()),
  description: z.string().nullish(),
  config: optional(JsonObject),
  context: optional(JsonObject),
  metadata: optional(JsonObject),
});

export const AssistantPatch = z.object({
  graph_id: optional(z.string()),
  name: optional(z.string()),
  description: z.string().nullish(),
  config: optional(JsonObject),
  context: optional(JsonObject),
  metadata: optional(JsonObject),
});

/** Shared by search and count. `config: null` (or `{}`) asks for unconfigured assistants. */
const AssistantFilterFields = {
  graph_id: optional(z.string()),
  name: optional(z.string()),
  metadata: optional(JsonObject),
  config: JsonObject.nullable().optional(),
};

export const AssistantCountRequest = z.object(AssistantFilterFields);

export const AssistantSearchRequest = z.object({
  ...AssistantFilterFields,
  limit: Limit,
  offset: Offset,
  sort_by: optional(z.enum(ASSISTANT_SORT_FIELDS)),
  sort_order: optional(SortOrder),
  select: optional(z.array(z.enum(ASSISTANT_SELECT_FIELDS))),
});

export const AssistantVersionsSearchRequest = z.object({
  metadata: optional(JsonObject),
  limit: Limit,
  offset: Offset,
});

export const AssistantLatestVersion = z.object({
  version: z.number().int().min(1).max(MAX_INT4),
});

export const AssistantDeleteQuery = z.object({
  delete_threads: QueryBoolean.optional(),
});

/** `xray`: true/false, or a depth (subgraphs up to that depth are drawn). */
export const AssistantGraphQuery = z.object({
  xray: z
    .string()
    .regex(/^(true|false|\d+)$/, "expected true, false or a depth")
    .transform((value) => (value === "true" ? true : value === "false" ? false : Number(value)))
    .optional(),
});

export const AssistantSubgraphsQuery = z.object({
  recurse: QueryBoolean.optional(),
});
