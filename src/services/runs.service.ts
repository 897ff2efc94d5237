import { listRunsOfThreads } from "../db/sql/list-runs-of-threads.js";
import { listThreadRuns } from "../db/sql/list-thread-runs.js";
import { selectActiveRunIds } from "../db/sql/select-active-run-ids.js";
import { selectRuns } from "../db/sql/select-runs.js";
import { threadExists } from "../db/sql/thread-exists.js";
import { NotFoundError } from "../domain/errors.js";
import { isUuid } from "../domain/ids.js";
import type { Run, RunStatus } from "../domain/run.js";
import { isRestricted, scopeOf } from "./access-scope.js";
import { openRun, openRuns } from "./field-encryption.js";
import { inKeyOrder } from "./key-order.js";
import type { ServiceContext } from "./service-context.js";

/**
 * Reading runs. What changes a run (creating, cancelling, deleting, executing, settling) is the
 * run lifecycle's, in run-lifecycle/ (docs/run-lifecycle.md); waiting for a run's end is
 * run-results.service.ts, and its stored events run-events.service.ts.
 */

/** A thread's newest runs and how many it has in all (with the same status filter). */
export interface ThreadRunsPage {
  runs: Run[];
  total: number;
}

export function requireRunId(runId: string): string {
  if (!isUuid(runId)) throw new NotFoundError(`Run '${runId}' not found: run ids are UUIDs`);
  return runId.toLowerCase();
}

export const runsService = {
  async get(ctx: ServiceContext, threadId: string | null, runId: string): Promise<Run> {
    const scope = await scopeOf(ctx, "threads", "read", { thread_id: threadId ?? undefined, run_id: runId });
    const [run] = await selectRuns(ctx.db.dataSource.manager, [requireRunId(runId)], scope);
    if (!run || (threadId !== null && run.threadId !== threadId.toLowerCase())) {
      throw new NotFoundError(`Run '${runId}' not found${threadId ? ` on thread '${threadId}'` : ""}`);
    }
    return openRun(ctx, run);
  },

  async getMany(ctx: ServiceContext, runIds: readonly string[]): Promise<(Run | null)[]> {
    const valid = runIds.filter(isUuid).map((id) => id.toLowerCase());
    const scope = await scopeOf(ctx, "threads", "read", { run_ids: valid });
    const runs = valid.length > 0 ? await openRuns(ctx, await selectRuns(ctx.db.dataSource.manager, valid, scope)) : [];
    return inKeyOrder(runIds.map((id) => id.toLowerCase()), runs, (run) => run.runId);
  },

  async list(
    ctx: ServiceContext,
    query: { threadId: string; status?: RunStatus; limit: number; offset: number },
  ): Promise<Run[]> {
    const threadId = requireThreadIdForRun(query.threadId);
    const scope = await scopeOf(ctx, "threads", "search", { thread_id: threadId, status: query.status, limit: query.limit, offset: query.offset });
    // An unknown thread (or one the caller may not see) is a 404, not an empty list.
    if (isRestricted(scope) && !(await threadExists(ctx.db.dataSource.manager, threadId, scope))) {
      throw new NotFoundError(`Thread '${query.threadId}' not found`);
    }
    const runs = await openRuns(ctx, await listThreadRuns(ctx.db.dataSource.manager, { ...query, threadId }));
    if (runs.length === 0 && query.offset === 0) {
      if (!(await threadExists(ctx.db.dataSource.manager, threadId))) throw new NotFoundError(`Thread '${query.threadId}' not found`);
    }
    return runs;
  },

  /** Pending and running runs, optionally of one thread and status (bulk cancel). */
  async listActive(ctx: ServiceContext, filter: { threadId?: string; status?: "pending" | "running" | "all" }): Promise<Run[]> {
    const statuses = filter.status === "pending" || filter.status === "running" ? [filter.status] : ["pending", "running"];
    const threadId = filter.threadId ? requireThreadIdForRun(filter.threadId) : null;
    const runIds = await selectActiveRunIds(ctx.db.dataSource.manager, { statuses, threadId });
    const runs = await runsService.getMany(ctx, runIds);
    return runs.filter((run): run is Run => run !== null);
  },

  /**
   * The newest `perThread` runs of each thread, newest first, in key order (DataLoader batches of
   * GraphQL Thread.runs); an unknown or malformed thread id has no runs. No scope of its own: the
   * caller reached these threads through threadsService, which applied the thread's.
   */
  async listNewestOfThreads(
    ctx: ServiceContext,
    threadIds: readonly string[],
    query: { status: RunStatus | null; perThread: number },
  ): Promise<ThreadRunsPage[]> {
    const keys = threadIds.map((id) => id.toLowerCase());
    const valid = [...new Set(keys.filter(isUuid))];
    const rows =
      valid.length > 0 ? await listRunsOfThreads(ctx.db.dataSource.manager, { threadIds: valid, ...query }) : [];
    const runs = await openRuns(ctx, rows.map((row) => row.run));
    const pages = new Map<string, ThreadRunsPage>();
    for (const [index, { threadTotal }] of rows.entries()) {
      const run = runs[index]!;
      const page = pages.get(run.threadId) ?? { runs: [], total: threadTotal };
      page.runs.push(run);
      pages.set(run.threadId, page);
    }
    return keys.map((key) => pages.get(key) ?? { runs: [], total: 0 });
  },
};

export function requireThreadIdForRun(threadId: string): string {
  if (!isUuid(threadId)) throw new NotFoundError(`Thread '${threadId}' not found: thread ids are UUIDs`);
  return threadId.toLowerCase();
}
