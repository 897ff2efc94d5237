import { z } from "zod";
import { optional, QueryBoolean } from "./common.js";

/**
 * Store payloads of LangGraph Platform. Shapes only: the namespace rules, page bounds and
 * filter operators are the store service's (GraphQL sends the same inputs).
 */
const Namespace = z.array(z.string());

export const StorePutItem = z.object({
  namespace: Namespace,
  key: z.string(),
  value: z.unknown(),
  index: optional(z.union([z.literal(false), z.array(z.string())])),
  // null is meaningful here (never expires), unlike most optional fields.
  ttl: z.number().nullable().optional(),
});

export const StoreDeleteItem = z.object({
  namespace: Namespace,
  key: z.string(),
});

/** GET /store/items: the SDK joins the namespace's labels with dots. */
export const StoreGetItem = z.object({
  namespace: z.string().transform((joined) => (joined === "" ? [] : joined.split("."))),
  key: z.string(),
  refresh_ttl: optional(QueryBoolean),
});

export const StoreSearchItems = z.object({
  namespace_prefix: optional(Namespace),
  filter: optional(z.unknown()),
  limit: optional(z.number()),
  offset: optional(z.number()),
  query: optional(z.string()),
  refresh_ttl: optional(z.boolean()),
});

export const StoreListNamespaces = z.object({
  prefix: optional(Namespace),
  suffix: optional(Namespace),
  max_depth: optional(z.number()),
  limit: optional(z.number()),
  offset: optional(z.number()),
});
