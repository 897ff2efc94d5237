import type { EntityManager } from "typeorm";
import type { Thread } from "../../domain/thread.js";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";

/**
 * New threads in one statement. They arrive as one JSON array (jsonb_to_recordset), as the run
 * queue's runs do (enqueue-runs.ts). Their ids must be distinct: two rows with one id in one
 * INSERT would both read as inserted.
 */
const INSERT_THREADS = preparedStatement(
  "insert_threads_json",
  `WITH given AS (
     SELECT * FROM jsonb_to_recordset($1::jsonb) AS g (
       thread_id uuid, created_at timestamptz, updated_at timestamptz, state_updated_at timestamptz, metadata jsonb,
       config jsonb, status text, "values" jsonb, interrupts jsonb, error jsonb, ttl_minutes double precision, encryption_context jsonb)
   )
   INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at, metadata, config, status, "values",
     interrupts, error, ttl_minutes, encryption_context)
   SELECT thread_id, created_at, updated_at, state_updated_at, metadata, config, status, "values", interrupts, error,
     ttl_minutes, encryption_context FROM given
   ON CONFLICT (thread_id) DO NOTHING
   RETURNING thread_id`,
);

/**
 * Stores `threads` (metadata and values as stored: sealed when encryption is on; ids distinct);
 * answers, in their order, whether each was inserted (false: its id exists).
 */
export async function insertThreads(manager: EntityManager, threads: readonly Thread[]): Promise<boolean[]> {
  const rows = threads.map((thread) => ({
    thread_id: thread.threadId,
    created_at: thread.createdAt,
    updated_at: thread.updatedAt,
    state_updated_at: thread.stateUpdatedAt,
    metadata: thread.metadata,
    config: thread.config,
    status: thread.status,
    values: thread.values ?? null,
    interrupts: thread.interrupts,
    error: thread.error ?? null,
    ttl_minutes: thread.ttlMinutes ?? null,
    encryption_context: thread.encryptionContext ?? null,
  }));
  const { rows: inserted } = await runStatement<{ thread_id: string }>(manager, INSERT_THREADS, [JSON.stringify(rows)]);
  const insertedIds = new Set(inserted.map((row) => row.thread_id));
  return threads.map((thread) => insertedIds.has(thread.threadId));
}
