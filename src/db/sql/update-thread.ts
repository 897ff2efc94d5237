import type { EntityManager } from "typeorm";
import type { JsonObject } from "../../domain/json.js";
import type { Thread, ThreadStatus } from "../../domain/thread.js";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";
import { jsonParameter } from "./json-parameter.js";
import { THREAD_COLUMNS, threadFromRow, type ThreadRow } from "./thread-rows.js";

const UPDATE_THREAD = preparedStatement(
  "update_thread",
  `UPDATE threads SET metadata = CAST($2 AS jsonb), "values" = CAST($3 AS jsonb), ttl_minutes = $4,
     encryption_context = CAST($5 AS jsonb), updated_at = $6
   WHERE thread_id = $1`,
);

/**
 * A thread's own fields as a thread PATCH leaves them (metadata and values as stored: sealed
 * whole with `encryptionContext` when encryption is on). The caller holds the row's lock.
 */
export async function updateThread(
  manager: EntityManager,
  threadId: string,
  fields: { metadata: JsonObject; values: unknown; ttlMinutes: number | null; encryptionContext: JsonObject | null; updatedAt: Date },
): Promise<void> {
  await runStatement(manager, UPDATE_THREAD, [
    threadId,
    jsonParameter(fields.metadata),
    jsonParameter(fields.values),
    fields.ttlMinutes,
    jsonParameter(fields.encryptionContext),
    fields.updatedAt,
  ]);
}

const RECORD_THREAD_STATE = preparedStatement(
  "record_thread_state",
  `UPDATE threads SET "values" = CAST($2 AS jsonb), interrupts = CAST($3 AS jsonb), status = $4, error = CAST($5 AS jsonb),
     encryption_context = CAST($6 AS jsonb), updated_at = $7, state_updated_at = $7
   WHERE thread_id = $1`,
);

/** What a thread row caches of its latest state (values as stored: sealed when encryption is on). */
export interface RecordedThreadState {
  values: unknown;
  interrupts: JsonObject;
  status: ThreadStatus;
  error: string | JsonObject | null;
  encryptionContext: JsonObject | null;
}

/** Caches the thread's latest state in its row (services/thread-state.service.ts syncThread). */
export async function recordThreadState(manager: EntityManager, threadId: string, state: RecordedThreadState, now: Date): Promise<void> {
  await runStatement(manager, RECORD_THREAD_STATE, [
    threadId,
    jsonParameter(state.values),
    jsonParameter(state.interrupts),
    state.status,
    jsonParameter(state.error),
    jsonParameter(state.encryptionContext),
    now,
  ]);
}

const MERGE_THREAD_METADATA = preparedStatement(
  "merge_thread_metadata",
  `UPDATE threads SET metadata = metadata || CAST($3 AS jsonb),
     ttl_minutes = CASE WHEN $4::boolean THEN $5::double precision ELSE ttl_minutes END, updated_at = $6
   WHERE thread_id = $1 AND metadata @> CAST($2 AS jsonb)
   RETURNING ${THREAD_COLUMNS}`,
);

/**
 * A thread PATCH in one statement, for rows stored in clear: `metadata`'s keys replace the
 * thread's (others stay), and a given `ttlMinutes` replaces its TTL. The thread as updated, or
 * null when it is missing or outside `scope`.
 */
export async function mergeThreadMetadata(
  manager: EntityManager,
  target: { threadId: string; scope: Record<string, unknown> },
  changes: { metadata: JsonObject; ttlMinutes?: number },
  now: Date,
): Promise<Thread | null> {
  const { rows } = await runStatement<ThreadRow>(manager, MERGE_THREAD_METADATA, [
    target.threadId,
    JSON.stringify(target.scope),
    JSON.stringify(changes.metadata),
    changes.ttlMinutes !== undefined,
    changes.ttlMinutes ?? null,
    now,
  ]);
  const [row] = rows;
  return row ? threadFromRow(row) : null;
}
