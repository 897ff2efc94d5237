import { z } from "zod";
import { CRON_SORT_FIELDS } from "../../domain/cron.js";
import { JsonObject, Limit, Offset, optional, SortOrder } from "./common.js";
import { RunExecutionFields } from "./runs.js";

/** Fields `select` may name on POST /runs/crons/search (the SDK's CronSelectField, and ours). */
export const CRON_SELECT_FIELDS = [
  "cron_id",
  "assistant_id",
  "thread_id",
  "end_time",
  "schedule",
  "timezone",
  "created_at",
  "updated_at",
  "user_id",
  "payload",
  "next_run_date",
  "metadata",
  "enabled",
  "on_run_completed",
  "now",
  "last_firing",
] as const;

const Timestamp = z.iso
  .datetime({ offset: true, error: "must be an ISO 8601 timestamp with offset, e.g. 2030-01-01T00:00:00Z" })
  .transform((value) => new Date(value));

const CronScheduleFields = {
  timezone: optional(z.string()),
  end_time: optional(Timestamp),
  enabled: optional(z.boolean()),
  on_run_completed: optional(z.enum(["delete", "keep"])),
};

/** CronCreate of the LangGraph Platform API (POST /runs/crons and /threads/{id}/runs/crons). */
export const CronCreate = z.object({
  assistant_id: z.string({ error: "assistant_id is required (an assistant id or a graph name)" }).min(1),
  schedule: z.string({ error: "schedule is required: 5 cron fields (minute hour day-of-month month day-of-week)" }),
  ...CronScheduleFields,
  ...RunExecutionFields,
  // Sent by the SDK; a thread cron's thread must exist when the cron is created.
  if_not_exists: optional(z.enum(["create", "reject"])),
});
export type CronCreate = z.infer<typeof CronCreate>;

/** PATCH /runs/crons/{cron_id}: given fields replace the stored ones; `end_time: null` clears it. */
export const CronPatch = z.object({
  schedule: optional(z.string()),
  ...CronScheduleFields,
  end_time: Timestamp.nullable().optional(),
  ...RunExecutionFields,
});
export type CronPatch = z.infer<typeof CronPatch>;

/** Shared by search and count. */
const CronFilterFields = {
  assistant_id: optional(z.string()),
  thread_id: optional(z.string()),
  enabled: optional(z.boolean()),
  metadata: optional(JsonObject),
};

export const CronCountRequest = z.object(CronFilterFields);

export const CronSearchRequest = z.object({
  ...CronFilterFields,
  limit: Limit,
  offset: Offset,
  sort_by: optional(z.enum(CRON_SORT_FIELDS)),
  sort_order: optional(SortOrder),
  select: optional(z.array(z.enum(CRON_SELECT_FIELDS))),
});
