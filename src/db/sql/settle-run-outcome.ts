import type { EntityManager } from "typeorm";
import type { JsonObject } from "../../domain/json.js";
import type { RunStatus } from "../../domain/run.js";
import type { ThreadStatus } from "../../domain/thread.js";
import { preparedStatement, queryPrepared } from "../prepared-statement.js";

export interface RunOutcomeRecord {
  runId: string;
  workerId: string;
  status: RunStatus;
  error: JsonObject | null;
  now: Date;
  thread: {
    threadId: string;
    values: JsonObject | null;
    interrupts: JsonObject;
    /** The status the thread settles in when no other run is queued on it. */
    status: ThreadStatus;
    error: string | JsonObject | null;
  };
}

const SETTLE_RUN = preparedStatement(
  "settle_run",
  `SELECT recorded, thread_has_active_runs FROM hangar_settle_run($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
);

/**
 * Records a finished run and the thread state it left, in one round trip (hangar_settle_run,
 * migrations/…-create-run-functions), only while this worker holds the run's lease. Answers
 * whether it did, and whether the thread has other runs queued (it then stays busy).
 */
export async function settleRunOutcome(
  manager: EntityManager,
  record: RunOutcomeRecord,
): Promise<{ recorded: boolean; threadHasActiveRuns: boolean }> {
  const { thread } = record;
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  const rows = await queryPrepared<{ recorded: boolean; thread_has_active_runs: boolean }>(
    manager,
    SETTLE_RUN,
    [
      record.runId,
      record.workerId,
      record.status,
      json(record.error),
      record.now,
      thread.threadId,
      json(thread.values),
      json(thread.interrupts),
      thread.status,
      json(thread.error),
    ],
  );
  return { recorded: rows[0].recorded, threadHasActiveRuns: rows[0].thread_has_active_runs };
}
