import type { EntityManager } from "typeorm";
import type { JsonObject } from "../../domain/json.js";
import type { ThreadStatus } from "../../domain/thread.js";
import { runStatement } from "../run-statement.js";

/**
 * Ends a thread's `busy` after a run whose state could not be recorded: the thread takes `status`
 * and `error` unless another run is pending or running on it (it then stays busy). Its values are
 * left as they are. Locks the thread row until the caller's transaction commits (call it inside one), as
 * hangar_settle_run does, so a run queued meanwhile is seen. Returns whether other runs are active.
 */
export async function settleThreadStatus(
  manager: EntityManager,
  thread: { threadId: string; status: ThreadStatus; error: JsonObject | null; now: Date },
): Promise<{ threadHasActiveRuns: boolean }> {
  // Two statements: the EXISTS must see runs committed while this one waited for the row lock,
  // which a single statement's snapshot (taken before the wait) would not.
  const { rows: locked } = await runStatement(manager, "SELECT 1 FROM threads WHERE thread_id = $1 FOR UPDATE", [thread.threadId]);
  if (locked.length === 0) return { threadHasActiveRuns: false };
  const { rows } = await runStatement<{ active: boolean }>(
    manager,
    `WITH active AS (SELECT EXISTS (SELECT 1 FROM runs WHERE thread_id = $1 AND status IN ('pending', 'running')) AS active),
     settled AS (
       UPDATE threads t SET status = CASE WHEN a.active THEN 'busy' ELSE $2 END, error = $3::jsonb, updated_at = $4
       FROM active a WHERE t.thread_id = $1
     )
     SELECT active FROM active`,
    [thread.threadId, thread.status, thread.error === null ? null : JSON.stringify(thread.error), thread.now],
  );
  return { threadHasActiveRuns: rows[0]?.active ?? false };
}
