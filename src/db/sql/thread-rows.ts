import type { JsonObject } from "../../domain/json.js";
import type { Thread, ThreadStatus } from "../../domain/thread.js";

/** Column list every thread statement returns, so all of them map rows the same way. */
export const THREAD_COLUMNS = `thread_id, created_at, updated_at, state_updated_at, metadata, config, status, "values",
  interrupts, error, ttl_minutes, encryption_context`;

export interface ThreadRow {
  thread_id: string;
  created_at: Date;
  updated_at: Date;
  state_updated_at: Date;
  metadata: JsonObject;
  config: JsonObject;
  status: ThreadStatus;
  values: unknown;
  interrupts: JsonObject;
  error: string | JsonObject | null;
  ttl_minutes: number | null;
  encryption_context: JsonObject | null;
}

export function threadFromRow(row: ThreadRow): Thread {
  return {
    threadId: row.thread_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    stateUpdatedAt: row.state_updated_at,
    metadata: row.metadata,
    config: row.config,
    status: row.status,
    values: row.values,
    interrupts: row.interrupts,
    error: row.error,
    ttlMinutes: row.ttl_minutes,
    encryptionContext: row.encryption_context,
  };
}
