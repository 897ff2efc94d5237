import type { EntityManager } from "typeorm";
import type { Cron } from "../../domain/cron.js";
import { runStatement } from "../run-statement.js";

/** A new cron. Its thread and assistant must still exist (foreign keys; 23503 otherwise). */
export async function insertCron(manager: EntityManager, cron: Cron): Promise<void> {
  await runStatement(
    manager,
    `INSERT INTO crons (cron_id, assistant_id, thread_id, schedule, timezone, payload, metadata, end_time, enabled,
       on_run_completed, next_run_date, created_at, updated_at, encryption_context)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13)`,
    [
      cron.cronId,
      cron.assistantId,
      cron.threadId,
      cron.schedule,
      cron.timezone,
      cron.payload,
      cron.metadata,
      cron.endTime,
      cron.enabled,
      cron.onRunCompleted,
      cron.nextRunDate,
      cron.createdAt,
      cron.encryptionContext,
    ],
  );
}
