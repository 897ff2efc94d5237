import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";
import type { JsonObject } from "../../domain/json.js";
import type { RunStatus } from "../../domain/run.js";

/**
 * Records a run's final status, but only while this worker still holds its lease: a worker that
 * lost its lease must not overwrite the run another worker took over. Returns whether it did.
 */
export async function finishRun(
  manager: EntityManager,
  outcome: { runId: string; workerId: string; status: RunStatus; error: JsonObject | null; now: Date },
): Promise<boolean> {
  const result = await runStatement(
    manager,
    `UPDATE runs SET status = $3, error = $4, updated_at = $5, lease_owner = NULL, lease_expires_at = NULL
     WHERE run_id = $1 AND lease_owner = $2 AND status = 'running'`,
    [outcome.runId, outcome.workerId, outcome.status, outcome.error, outcome.now],
  );
  return result.affected > 0;
}
