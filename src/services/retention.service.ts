import { scopeOf } from "./access-scope.js";
import { deleteExpiredThreads } from "../db/sql/delete-expired-threads.js";
import { deleteOldTraceRuns } from "../db/sql/delete-old-trace-runs.js";
import { deleteIdleThreads } from "../db/sql/delete-idle-threads.js";
import { deleteOlderCheckpoints } from "../db/sql/delete-older-checkpoints.js";
import { lockIdleThreads } from "../db/sql/lock-idle-threads.js";
import { deleteThreadCheckpoints } from "../db/sql/thread-checkpoints.js";
import { withTransaction } from "../db/tx.js";
import { isUuid } from "../domain/ids.js";
import { InvalidInputError } from "../domain/errors.js";
import { PRUNE_STRATEGIES, type PruneStrategy } from "../domain/thread-retention.js";
import type { ServiceContext } from "./service-context.js";


/** Threads deleted per sweep transaction: bounds how long one sweep holds its locks. */
const THREAD_SWEEP_BATCH = 500;
/** Trace runs deleted per sweep transaction. */
const TRACE_SWEEP_BATCH = 5000;
const DAY_MS = 24 * 3600 * 1000;
/** Store items deleted per sweep statement. */
const STORE_SWEEP_BATCH = 1000;

/**
 * What expires and what can be pruned: TTL sweeps of threads and store items (run by the TTL
 * sweeper in every process; an advisory lock makes exactly one of them sweep at a time) and
 * POST /threads/prune.
 */
export const retentionService = {
  /**
   * Deletes threads whose TTL ran out (with checkpoints, runs and crons), skipping any with a
   * pending or running run. Returns how many went; 0 when another process is sweeping.
   */
  async sweepExpiredThreads(ctx: ServiceContext): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await withTransaction(ctx.db, async (manager) => {
        const threadIds = await deleteExpiredThreads(manager, THREAD_SWEEP_BATCH);
        if (threadIds.length > 0) await deleteThreadCheckpoints(manager, threadIds);
        return threadIds.length;
      });
      total += deleted;
      if (deleted < THREAD_SWEEP_BATCH) return total;
    }
  },

  /**
   * Deletes trace runs that started more than `retentionDays` ago (HANGAR_TRACE_RETENTION_DAYS), in
   * batches; a trace goes whole once its newest run is that old. 0 when another process is sweeping.
   */
  async sweepOldTraces(ctx: ServiceContext, retentionDays: number, now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
    let total = 0;
    for (;;) {
      const deleted = await withTransaction(ctx.db, (manager) => deleteOldTraceRuns(manager, cutoff, TRACE_SWEEP_BATCH));
      total += deleted;
      if (deleted < TRACE_SWEEP_BATCH) return total;
    }
  },

  /** Deletes expired store items (and their embeddings). 0 when another process is sweeping. */
  async sweepExpiredStoreItems(ctx: ServiceContext): Promise<number> {
    return ctx.db.store.sweepExpired(STORE_SWEEP_BATCH);
  },

  /**
   * POST /threads/prune: `delete` removes the threads (as DELETE /threads/{id} does),
   * `keep_latest` keeps each thread with only its latest checkpoint. Threads with a pending or
   * running run, unknown ids and threads outside the caller's auth filters are skipped.
   * Authorized as `threads:delete`. Returns how many threads were pruned.
   */
  async pruneThreads(ctx: ServiceContext, input: { threadIds: string[]; strategy: PruneStrategy }): Promise<number> {
    const invalid = input.threadIds.find((threadId) => !isUuid(threadId));
    if (invalid !== undefined) throw new InvalidInputError(`thread_ids: '${invalid}' is not a UUID`);
    if (!(PRUNE_STRATEGIES as readonly string[]).includes(input.strategy)) {
      throw new InvalidInputError(`strategy must be one of ${PRUNE_STRATEGIES.join(", ")}`);
    }
    const threadIds = [...new Set(input.threadIds.map((threadId) => threadId.toLowerCase()))];
    const metadataContains = await scopeOf(ctx, "threads", "delete", { thread_ids: threadIds, strategy: input.strategy });
    if (threadIds.length === 0) return 0;
    return withTransaction(ctx.db, async (manager) => {
      if (input.strategy === "delete") {
        const deleted = await deleteIdleThreads(manager, threadIds, metadataContains);
        if (deleted.length > 0) await deleteThreadCheckpoints(manager, deleted);
        return deleted.length;
      }
      const locked = await lockIdleThreads(manager, threadIds, metadataContains);
      if (locked.length > 0) await deleteOlderCheckpoints(manager, locked);
      return locked.length;
    });
  },
};
