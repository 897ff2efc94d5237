import type { EntityManager } from "typeorm";
import type { Cron } from "../../domain/cron.js";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";
import { jsonParameter } from "./json-parameter.js";

const UPDATE_CRON = preparedStatement(
  "update_cron",
  `UPDATE crons SET assistant_id = $2, thread_id = $3, schedule = $4, timezone = $5, payload = CAST($6 AS jsonb),
     metadata = CAST($7 AS jsonb), end_time = $8, enabled = $9, on_run_completed = $10, next_run_date = $11,
     created_at = $12, updated_at = $13, encryption_context = CAST($14 AS jsonb)
   WHERE cron_id = $1`,
);

/** Writes every field of a cron as given (metadata and payload as stored: sealed when encryption is on). */
export async function updateCron(manager: EntityManager, cron: Cron): Promise<void> {
  await runStatement(manager, UPDATE_CRON, [
    cron.cronId,
    cron.assistantId,
    cron.threadId,
    cron.schedule,
    cron.timezone,
    jsonParameter(cron.payload),
    jsonParameter(cron.metadata),
    cron.endTime,
    cron.enabled,
    cron.onRunCompleted,
    cron.nextRunDate,
    cron.createdAt,
    cron.updatedAt,
    jsonParameter(cron.encryptionContext),
  ]);
}
