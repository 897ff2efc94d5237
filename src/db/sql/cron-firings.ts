import type { EntityManager } from "typeorm";
import type { CronFiring, CronFiringStatus } from "../../domain/cron.js";
import type { JsonObject } from "../../domain/json.js";
import { runStatement } from "../run-statement.js";

interface FiringRow {
  firing_id: string;
  cron_id: string;
  run_id: string | null;
  thread_id: string | null;
  status: CronFiringStatus;
  fired_at: Date;
  started_at: Date | null;
  ended_at: Date | null;
  error: JsonObject | null;
}

const COLUMNS = "firing_id, cron_id, run_id, thread_id, status, fired_at, started_at, ended_at, error";

function toFiring(row: FiringRow): CronFiring {
  return {
    firingId: row.firing_id,
    cronId: row.cron_id,
    runId: row.run_id,
    threadId: row.thread_id,
    status: row.status,
    firedAt: row.fired_at,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    error: row.error,
  };
}

/** Each cron's newest firing (crons never fired are absent). */
export async function selectLastFirings(manager: EntityManager, cronIds: readonly string[]): Promise<Map<string, CronFiring>> {
  if (cronIds.length === 0) return new Map();
  const { rows } = await runStatement<FiringRow>(
    manager,
    `SELECT f.* FROM unnest($1::uuid[]) AS c (cron_id)
     CROSS JOIN LATERAL (
       SELECT ${COLUMNS} FROM cron_firings WHERE cron_id = c.cron_id ORDER BY fired_at DESC, firing_id DESC LIMIT 1
     ) AS f`,
    [cronIds],
  );
  return new Map(rows.map((row) => [row.cron_id, toFiring(row)]));
}

/** Each cron's newest firings, newest first, at most `limit` per cron, and how many it has. */
export async function selectFirings(
  manager: EntityManager,
  cronIds: readonly string[],
  limit: number,
): Promise<Map<string, { firings: CronFiring[]; total: number }>> {
  const found = new Map(cronIds.map((cronId) => [cronId, { firings: [] as CronFiring[], total: 0 }]));
  if (cronIds.length === 0) return found;
  const { rows } = await runStatement<FiringRow & { total: string }>(
    manager,
    `SELECT f.*, t.total FROM unnest($1::uuid[]) AS c (cron_id)
     CROSS JOIN LATERAL (SELECT count(*) AS total FROM cron_firings WHERE cron_id = c.cron_id) AS t
     CROSS JOIN LATERAL (
       SELECT ${COLUMNS} FROM cron_firings WHERE cron_id = c.cron_id ORDER BY fired_at DESC, firing_id DESC LIMIT $2
     ) AS f`,
    [cronIds, limit],
  );
  for (const row of rows) {
    const entry = found.get(row.cron_id)!;
    entry.firings.push(toFiring(row));
    entry.total = Number(row.total);
  }
  return found;
}

/** Keeps each cron's newest `keep` firings; deletes at most `limit` older ones per call. */
export async function deleteOldFirings(manager: EntityManager, keep: number, limit: number): Promise<number> {
  // runStatement: TypeORM's query() answers a DELETE with [rows, count], not the rows.
  const result = await runStatement(
    manager,
    `DELETE FROM cron_firings WHERE firing_id IN (
       SELECT firing_id FROM (
         SELECT firing_id, row_number() OVER (PARTITION BY cron_id ORDER BY fired_at DESC, firing_id DESC) AS newer
         FROM cron_firings
       ) AS ranked WHERE newer > $1 LIMIT $2
     ) RETURNING firing_id`,
    [keep, limit],
  );
  return result.rows.length;
}
