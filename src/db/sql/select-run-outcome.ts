import type { EntityManager } from "typeorm";
import type { JsonObject } from "../../domain/json.js";
import type { RunStatusAndValues, RunStatus } from "../../domain/run.js";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";

const SELECT_RUN_OUTCOME = preparedStatement(
  "select_run_outcome",
  `SELECT r.thread_id, r.status, r.error, t."values"
   FROM runs r LEFT JOIN threads t ON t.thread_id = r.thread_id WHERE r.run_id = $1`,
);

/** A run's status with its thread's current values, in one read (join polls this on wake-ups). */
export async function selectRunOutcome(manager: EntityManager, runId: string): Promise<RunStatusAndValues | null> {
  const { rows } = await runStatement<{ thread_id: string; status: RunStatus; error: JsonObject | null; values: JsonObject | null }>(
    manager,
    SELECT_RUN_OUTCOME,
    [runId],
  );
  const [row] = rows;
  return row ? { threadId: row.thread_id, status: row.status, error: row.error, threadValues: row.values } : null;
}
