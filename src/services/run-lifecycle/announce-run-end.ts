import type { RunStatusAndValues, RunStatus } from "../../domain/run.js";
import type { ServiceContext } from "../service-context.js";

/**
 * How a run's end is told in this process, after the commit that ended it: its stream ends (the
 * bus's `end`, with the status streams report) and its waiters wake (`done`). One function, so
 * every path that ends a run (settle, cancel of a pending run, deletion of a run or of its thread)
 * tells it the same way. Other processes hear it from the runs trigger's NOTIFY
 * (docs/run-lifecycle.md). Imports nothing heavy: threads.service uses it too.
 */
export function announceRunEnd(
  ctx: ServiceContext,
  run: { runId: string; threadId: string },
  status: RunStatus | "deleted",
  outcome?: RunStatusAndValues,
): void {
  ctx.streaming.bus.publish({ kind: "end", runId: run.runId, threadId: run.threadId, status });
  ctx.streaming.signals.runDone(run.runId, outcome);
}

/**
 * Runs deleted with their thread (foreign key): a worker still executing one must stop (it finds
 * the row gone and abandons the run), and their streams and waiters end.
 */
export function announceRunsDeletedWithThread(ctx: ServiceContext, threadId: string, runIds: readonly string[]): void {
  for (const runId of runIds) {
    ctx.streaming.signals.cancelRequested(runId);
    announceRunEnd(ctx, { runId, threadId }, "deleted");
  }
}
