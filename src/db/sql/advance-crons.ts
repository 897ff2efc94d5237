import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/**
 * Moves fired crons to their next slot (null: none left) in one statement. The caller claimed
 * these rows (claimDueCrons) in the same transaction, so nobody else can have moved them.
 */
export async function advanceCrons(manager: EntityManager, crons: Array<{ cronId: string; nextRunDate: Date | null }>): Promise<void> {
  if (crons.length === 0) return;
  await runStatement(
    manager,
    `UPDATE crons SET next_run_date = (r ->> 1)::timestamptz
     FROM jsonb_array_elements($1::jsonb) AS r WHERE crons.cron_id = (r ->> 0)::uuid`,
    [JSON.stringify(crons.map((cron) => [cron.cronId, cron.nextRunDate?.toISOString() ?? null]))],
  );
}
