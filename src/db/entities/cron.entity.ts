import { EntitySchema } from "typeorm";
import type { Cron } from "../../domain/cron.js";

/** By-id reads and writes of crons (see migrations/…-create-crons); firing uses db/sql. */
export const CronEntity = new EntitySchema<Cron>({
  name: "Cron",
  tableName: "crons",
  columns: {
    cronId: { name: "cron_id", type: "uuid", primary: true },
    assistantId: { name: "assistant_id", type: "uuid" },
    threadId: { name: "thread_id", type: "uuid", nullable: true },
    schedule: { type: "text" },
    timezone: { type: "text" },
    payload: { type: "jsonb" },
    metadata: { type: "jsonb" },
    endTime: { name: "end_time", type: "timestamptz", nullable: true },
    enabled: { type: "boolean" },
    onRunCompleted: { name: "on_run_completed", type: "text", nullable: true },
    nextRunDate: { name: "next_run_date", type: "timestamptz", nullable: true },
    createdAt: { name: "created_at", type: "timestamptz" },
    updatedAt: { name: "updated_at", type: "timestamptz" },
    encryptionContext: { name: "encryption_context", type: "jsonb", nullable: true },
  },
});
