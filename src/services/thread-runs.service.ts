import { listRunsOfThreads } from "../db/sql/list-runs-of-threads.js";
import { isUuid } from "../domain/ids.js";
import type { Run, RunStatus } from "../domain/run.js";
import type { ServiceContext } from "./service-context.js";

/** A thread's newest runs and how many it has in all (with the same status filter). */
export interface ThreadRunsPage {
  runs: Run[];
  total: number;
}

export const threadRunsService = {
  /**
   * The newest `perThread` runs of each thread, newest first, in key order (DataLoader batches of
   * GraphQL Thread.runs); an unknown or malformed thread id has no runs.
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
    const pages = new Map<string, ThreadRunsPage>();
    for (const { run, threadTotal } of rows) {
      const page = pages.get(run.threadId) ?? { runs: [], total: threadTotal };
      page.runs.push(run);
      pages.set(run.threadId, page);
    }
    return keys.map((key) => pages.get(key) ?? { runs: [], total: 0 });
  },
};
