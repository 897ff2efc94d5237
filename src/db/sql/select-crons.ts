import type { EntityManager } from "typeorm";
import type { Cron } from "../../domain/cron.js";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";
import { CRON_COLUMNS, cronFromRow, type CronRow } from "./cron-rows.js";

const SELECT_ONE = `SELECT ${CRON_COLUMNS} FROM crons WHERE cron_id = $1 AND metadata @> CAST($2 AS jsonb)`;
const SELECT_CRON = preparedStatement("select_cron", SELECT_ONE);
const LOCK_CRON = preparedStatement("lock_cron", `${SELECT_ONE} FOR UPDATE`);

/**
 * One cron by id (a UUID), if its metadata contains `scope` (the caller's authorization).
 * `lock`: FOR UPDATE, held until the caller's transaction ends.
 */
export async function selectCron(
  manager: EntityManager,
  cronId: string,
  scope: Record<string, unknown>,
  options: { lock?: boolean } = {},
): Promise<Cron | null> {
  const { rows } = await runStatement<CronRow>(manager, options.lock ? LOCK_CRON : SELECT_CRON, [cronId, JSON.stringify(scope)]);
  const [row] = rows;
  return row ? cronFromRow(row) : null;
}

/** The crons among `cronIds` (UUIDs) within `scope`, in no particular order. */
export async function selectCronsByIds(manager: EntityManager, cronIds: readonly string[], scope: Record<string, unknown>): Promise<Cron[]> {
  const { rows } = await runStatement<CronRow>(
    manager,
    `SELECT ${CRON_COLUMNS} FROM crons WHERE cron_id = ANY(CAST($1 AS uuid[])) AND metadata @> CAST($2 AS jsonb)`,
    [[...cronIds], JSON.stringify(scope)],
  );
  return rows.map(cronFromRow);
}
