import type { EntityManager } from "typeorm";

/**
 * Where a thread's stream starts for a client that names no position: just before the first
 * stored event of its active runs (the one in progress, and any queued behind it), so a client
 * attaching mid-run sees that run whole, then the queued ones; without active runs, just before
 * the latest run's first event (a run that ended before the client attached is still seen whole).
 * Null: start now (no runs, or the active ones have stored nothing yet). Reads only, one statement;
 * the latest run is looked up only when no run is active.
 */
export async function threadStreamStart(manager: EntityManager, threadId: string): Promise<number | null> {
  const [row]: Array<{ position: string | null }> = await manager.query(
    `SELECT CASE
       WHEN EXISTS (SELECT 1 FROM runs WHERE thread_id = $1 AND status IN ('pending', 'running')) THEN
         (SELECT min(e.stream_position) FROM runs r JOIN run_events e ON e.run_id = r.run_id
          WHERE r.thread_id = $1 AND r.status IN ('pending', 'running'))
       ELSE
         (SELECT min(e.stream_position) FROM run_events e
          WHERE e.run_id = (SELECT run_id FROM runs WHERE thread_id = $1 ORDER BY created_at DESC, run_id DESC LIMIT 1))
     END - 1 AS position`,
    [threadId],
  );
  return row?.position == null ? null : Number(row.position);
}
