import type { Cron } from "../../domain/cron.js";
import type { JsonObject } from "../../domain/json.js";

/** Column list every hand-written cron statement returns, so all of them map rows the same way. */
export const CRON_COLUMNS = `cron_id, assistant_id, thread_id, schedule, timezone, payload, metadata, end_time, enabled,
  on_run_completed, next_run_date, created_at, updated_at, encryption_context`;

export interface CronRow {
  cron_id: string;
  assistant_id: string;
  thread_id: string | null;
  schedule: string;
  timezone: string;
  payload: Cron["payload"];
  metadata: Cron["metadata"];
  end_time: Date | null;
  enabled: boolean;
  on_run_completed: Cron["onRunCompleted"];
  next_run_date: Date | null;
  created_at: Date;
  updated_at: Date;
  encryption_context: JsonObject | null;
}

export function cronFromRow(row: CronRow): Cron {
  return {
    cronId: row.cron_id,
    assistantId: row.assistant_id,
    threadId: row.thread_id,
    schedule: row.schedule,
    timezone: row.timezone,
    payload: row.payload,
    metadata: row.metadata,
    endTime: row.end_time,
    enabled: row.enabled,
    onRunCompleted: row.on_run_completed,
    nextRunDate: row.next_run_date,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    encryptionContext: row.encryption_context,
  };
}
