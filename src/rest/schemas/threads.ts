import { z } from "zod";
import { THREAD_SORT_FIELDS, THREAD_STATUSES } from "../../domain/thread.js";
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

export const ThreadCreate = z.object({
  thread_id: optional(z.string()),
  metadata: optional(JsonObject),
  if_exists: optional(z.enum(["raise", "do_nothing"])),
  supersteps: optional(ThreadSupersteps),
});

export const ThreadPatch = z.object({
  metadata: optional(JsonObject),
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
});
