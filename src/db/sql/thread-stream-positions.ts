import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/**
 * A thread's stream positions, read together (one statement, one snapshot):
 * - `last`: its last stored run event's position (0 when it has none);
 * - `runStart` (asked for with `withRunStart`): where a stream starts for a client that names no
 *   position: just before the first stored event of the thread's active runs (the one in
 *   progress, and any queued behind it), so a client attaching mid-run sees that run whole, then
 *   the queued ones; without active runs, just before the latest run's first event (a run that
 *   ended before the client attached is still seen whole). Null: start at `last` (no runs, or
 *   the active ones have stored nothing yet). The latest run is looked up only when none is active.
 * Reads only.
 */
export async function threadStreamPositions(manager: EntityManager, threadId: string, withRunStart: boolean): Promise<{ last: number; runStart: number | null }> {
  const { rows: [row] } = await runStatement<{ last: string | null; run_start: string | null }>(
    manager,
    `SELECT
       (SELECT max(e.stream_position) FROM run_events e JOIN runs r ON r.run_id = e.run_id WHERE r.thread_id = $1) AS last,
       CASE
         WHEN NOT $2::boolean THEN NULL
         WHEN EXISTS (SELECT 1 FROM runs WHERE thread_id = $1 AND status IN ('pending', 'running')) THEN
           (SELECT min(e.stream_position) FROM runs r JOIN run_events e ON e.run_id = r.run_id
            WHERE r.thread_id = $1 AND r.status IN ('pending', 'running'))
         ELSE
           (SELECT min(e.stream_position) FROM run_events e
            WHERE e.run_id = (SELECT run_id FROM runs WHERE thread_id = $1 ORDER BY created_at DESC, run_id DESC LIMIT 1))
       END - 1 AS run_start`,
    [threadId, withRunStart],
  );
  return { last: Number(row?.last ?? 0), runStart: row?.run_start == null ? null : Number(row.run_start) };
}
