import { z } from "zod";
import { THREAD_SORT_FIELDS, THREAD_STATUSES } from "../../domain/thread.js";
import { PRUNE_STRATEGIES } from "../../domain/thread-retention.js";
import { JsonObject, Limit, Offset, optional, SortOrder } from "./common.js";
import { ThreadSupersteps } from "./thread-state.js";

/** Fields `select` may name on POST /threads/search (the SDK's ThreadSelectField). */
export const THREAD_SELECT_FIELDS = [
  "thread_id",
  "created_at",
  "updated_at",
  "state_updated_at",
  "metadata",
  "config",
  "context",
  "status",
  "values",
  "interrupts",
] as const;

/** A thread's TTL as the SDK sends it: `{ttl: minutes, strategy: "delete"}` (a bare number is accepted too). */
export const ThreadTtl = z.union([
  z.number().positive().transform((ttl) => ({ ttl, strategy: "delete" as const })),
  z.object({ ttl: z.number().positive(), strategy: optional(z.literal("delete")) }),
]);

export const ThreadCreate = z.object({
  thread_id: optional(z.string()),
  metadata: optional(JsonObject),
  if_exists: optional(z.enum(["raise", "do_nothing"])),
  supersteps: optional(ThreadSupersteps),
  ttl: optional(ThreadTtl),
});

/** `Prefer: return=minimal` on PATCH /threads/{id} (the SDK's `returnMinimal`): 204, no body. */
export function prefersMinimalReturn(prefer: string | undefined): boolean {
  return (prefer ?? "").split(/[,;]/).some((preference) => preference.trim().toLowerCase() === "return=minimal");
}

export const ThreadPatch = z.object({
  metadata: optional(JsonObject),
  ttl: optional(ThreadTtl),
});

/** Shared by search and count. */
const ThreadFilterFields = {
  metadata: optional(JsonObject),
  values: optional(JsonObject),
  status: optional(z.enum(THREAD_STATUSES)),
};

export const ThreadCountRequest = z.object(ThreadFilterFields);

export const ThreadSearchRequest = z.object({
  ...ThreadFilterFields,
  ids: optional(z.array(z.guid())),
  limit: Limit,
  offset: Offset,
  sort_by: optional(z.enum(THREAD_SORT_FIELDS)),
  sort_order: optional(SortOrder),
  select: optional(z.array(z.enum(THREAD_SELECT_FIELDS))),
  // alias → path; the paths' rules are the domain's (domain/thread-extract.ts).
  extract: optional(z.record(z.string(), z.string())),
});

/** POST /threads/prune (LangGraph Platform); `strategy` defaults to delete. */
export const ThreadPruneRequest = z.object({
  thread_ids: z.array(z.string()),
  strategy: optional(z.enum(PRUNE_STRATEGIES)),
});
