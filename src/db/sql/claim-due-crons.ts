import type { EntityManager } from "typeorm";
import type { Cron } from "../../domain/cron.js";
import type { JsonObject } from "../../domain/json.js";
import { CRON_COLUMNS, cronFromRow, type CronRow } from "./cron-rows.js";
import { runStatement } from "../run-statement.js";

/** A claimed cron with what its run needs from the assistant's active version. */
export interface DueCron {
  cron: Cron;
  assistant: { graphId: string; version: number; context: JsonObject; config: JsonObject };
}

type DueCronRow = CronRow & { graph_id: string; version: number; assistant_context: JsonObject; assistant_config: JsonObject };

/**
 * Locks up to `limit` due crons (enabled, next_run_date <= now), earliest first, for the caller's
 * transaction. SKIP LOCKED: schedulers of other processes take disjoint sets without waiting, and
 * a row another transaction has just advanced is re-checked against the WHERE clause before it is
 * returned, so a slot is never claimed twice. The caller moves next_run_date forward and queues
 * the firing's run before committing; a crash before the commit leaves the slot due.
 */
export async function claimDueCrons(manager: EntityManager, claim: { now: Date; limit: number }): Promise<DueCron[]> {
  const { rows } = await runStatement<DueCronRow>(
    manager,
    `SELECT ${CRON_COLUMNS.replace(/(\w+)/g, "c.$1")},
       a.graph_id, a.version, a.context AS assistant_context, a.config AS assistant_config
     FROM crons c JOIN assistants a ON a.assistant_id = c.assistant_id
     WHERE c.enabled AND c.next_run_date <= $1
     ORDER BY c.next_run_date
     LIMIT $2
     FOR UPDATE OF c SKIP LOCKED`,
    [claim.now, claim.limit],
  );
  return rows.map((row) => ({
    cron: cronFromRow(row),
    assistant: { graphId: row.graph_id, version: row.version, context: row.assistant_context, config: row.assistant_config },
  }));
}
