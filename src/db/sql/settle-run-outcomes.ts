import type { EntityManager } from "typeorm";
import type { JsonObject } from "../../domain/json.js";
import type { RunStatus } from "../../domain/run.js";
import type { ThreadStatus } from "../../domain/thread.js";
import { preparedStatement } from "../prepared-statement.js";
import { threadLockOrder } from "./thread-lock-order.js";
import { runStatement } from "../run-statement.js";

export interface RunOutcomeRecord {
  runId: string;
  workerId: string;
  status: RunStatus;
  error: JsonObject | null;
  thread: {
    threadId: string;
    /** As stored (sealed when encryption is on): any JSON value, or null. */
    values: unknown;
    interrupts: JsonObject;
    /** The status the thread settles in when no other run is queued on it. */
    status: ThreadStatus;
    error: string | JsonObject | null;
  };
  /**
   * The run's webhook, queued in the outbox (webhook_deliveries) when the outcome is recorded;
   * its body names the run's updated_at, known only when the statement is sent.
   */
  webhook: ((updatedAt: Date) => { url: string; body: string }) | null;
}

export interface SettledRun {
  /** False when this worker no longer held the run's lease: nothing was written. */
  recorded: boolean;
  /** Whether the thread has other runs queued (it then stays busy). */
  threadHasActiveRuns: boolean;
}

const SETTLE_RUNS = preparedStatement(
  "settle_runs",
  `WITH settled AS MATERIALIZED (
     SELECT u.ord, u.run_id, u.webhook_url, u.webhook_body, s.recorded, s.thread_has_active_runs
     FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::uuid[], $7::text[], $8::text[], $9::text[], $10::text[],
       $11::text[], $12::text[])
       WITH ORDINALITY AS u (run_id, worker_id, status, error, now, thread_id, thread_values, interrupts, thread_status, thread_error,
         webhook_url, webhook_body, ord)
     CROSS JOIN LATERAL hangar_settle_run(u.run_id, u.worker_id, u.status, u.error::jsonb, u.now,
       u.thread_id, u.thread_values::jsonb, u.interrupts::jsonb, u.thread_status, u.thread_error::jsonb) s
   ), queued AS (
     INSERT INTO webhook_deliveries (run_id, url, body)
     SELECT run_id, webhook_url, webhook_body FROM settled WHERE recorded AND webhook_url IS NOT NULL
   )
   SELECT recorded, thread_has_active_runs FROM settled ORDER BY ord`,
);

/**
 * Records finished runs and the thread states they left (hangar_settle_run,
 * migrations/…-create-run-functions, once per run) in one statement and one commit, each only
 * while its worker holds the run's lease; the commit NOTIFYs `done` for each. A recorded run's
 * webhook is queued in the same statement, so an outcome is never committed without its webhook
 * (and a retry of the statement, recording nothing, queues nothing twice). Answers per record,
 * in order.
 *
 * Locks: each run row, then its thread row, until the statement commits; records are settled in
 * thread lock order (thread-lock-order.ts).
 *
 * `now` stamps the runs' and threads' updated_at: the time the statement is sent, not the time
 * each worker started settling (which a round in flight or a slow pool can precede by
 * milliseconds), so a run's updated_at is when its end was written, the moment join may answer.
 */
export async function settleRunOutcomes(manager: EntityManager, records: readonly RunOutcomeRecord[], now: Date): Promise<SettledRun[]> {
  const order = threadLockOrder(records, (record) => record.thread.threadId);
  const sorted = order.map((index) => records[index]!);
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  const webhooks = sorted.map((record) => record.webhook?.(now) ?? null);
  const { rows } = await runStatement<{ recorded: boolean; thread_has_active_runs: boolean }>(manager, SETTLE_RUNS, [
    sorted.map((record) => record.runId),
    sorted.map((record) => record.workerId),
    sorted.map((record) => record.status),
    sorted.map((record) => json(record.error)),
    sorted.map(() => now),
    sorted.map((record) => record.thread.threadId),
    sorted.map((record) => json(record.thread.values)),
    sorted.map((record) => json(record.thread.interrupts)),
    sorted.map((record) => record.thread.status),
    sorted.map((record) => json(record.thread.error)),
    webhooks.map((webhook) => webhook?.url ?? null),
    webhooks.map((webhook) => webhook?.body ?? null),
  ]);
  const settled: SettledRun[] = new Array(records.length);
  order.forEach((index, position) => {
    const row = rows[position]!;
    settled[index] = { recorded: row.recorded, threadHasActiveRuns: row.thread_has_active_runs };
  });
  return settled;
}
