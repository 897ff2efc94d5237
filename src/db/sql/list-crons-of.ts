import type { EntityManager } from "typeorm";
import type { Cron } from "../../domain/cron.js";
import { CRON_COLUMNS, cronFromRow, type CronRow } from "./cron-rows.js";
import { runStatement } from "../run-statement.js";

/**
 * The oldest `perOwner` crons of each of many assistants or threads, oldest first: one statement
 * for a page of owners (GraphQL Assistant.crons / Thread.crons). `owner` comes from this union
 * type only, never from a caller's string. Only crons whose metadata contains `scope` (the
 * caller's authorization). Plain reads; locks nothing.
 */
export async function listCronsOf(
  manager: EntityManager,
  query: { owner: "assistant_id" | "thread_id"; ownerIds: string[]; perOwner: number; scope: Record<string, unknown> },
): Promise<Cron[]> {
  const { rows } = await runStatement<CronRow>(
    manager,
    `SELECT ${CRON_COLUMNS} FROM (
       SELECT ${CRON_COLUMNS},
         row_number() OVER (PARTITION BY ${query.owner} ORDER BY created_at, cron_id) AS position
       FROM crons WHERE ${query.owner} = ANY($1::uuid[]) AND metadata @> CAST($3 AS jsonb)
     ) ranked
     WHERE position <= $2
     ORDER BY created_at, cron_id`,
    [query.ownerIds, query.perOwner, JSON.stringify(query.scope)],
  );
  return rows.map(cronFromRow);
}
