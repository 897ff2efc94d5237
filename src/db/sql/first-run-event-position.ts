import type { EntityManager } from "typeorm";

/** The thread stream position of a run's first stored event; null when it has none yet. Reads only. */
export async function firstRunEventPosition(manager: EntityManager, runId: string): Promise<number | null> {
  const [row]: Array<{ position: string | null }> = await manager.query(`SELECT min(stream_position) AS position FROM run_events WHERE run_id = $1`, [runId]);
  return row?.position == null ? null : Number(row.position);
}
