import type { EntityManager } from "typeorm";
import type { Run } from "../../domain/run.js";
import { RUN_COLUMNS, runFromRow, type RunRow } from "./run-rows.js";

/** Runs by id, in no particular order (callers key them). */
export async function selectRuns(manager: EntityManager, runIds: string[]): Promise<Run[]> {
  const rows: RunRow[] = await manager.query(`SELECT ${RUN_COLUMNS} FROM runs WHERE run_id = ANY($1::uuid[])`, [runIds]);
  return rows.map(runFromRow);
}
