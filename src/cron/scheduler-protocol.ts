import type { CronTick } from "../services/crons/fire-due-crons.js";

/**
 * What the main thread and the cron scheduler's worker thread say to each other over Bree's
 * message channel (structured clone: Dates survive, class instances do not). The thread keeps the
 * clock; the main thread fires.
 */

/** The job's workerData (Bree merges it with its own `job` key). No database URL: the thread never connects. */
export interface SchedulerJobData {
  safetyPollMs: number;
}

/** A tick's numbers without its effects, for logs and tests. */
export type TickSummary = Omit<CronTick, "effects">;

export type ToMainMessage =
  /** Tick: fire due crons now and answer with `fired`. */
  | { kind: "fire"; requestId: number }
  /** Bree's reply to `cancel`: the job stopped and may be terminated. */
  | "cancelled";

export type ToJobMessage =
  /** Crons changed, in this process or (relayed NOTIFY on PostgreSQL) in another: re-plan now. */
  | { kind: "changed" }
  /** The answer to `fire`. */
  | { kind: "fired"; requestId: number; outcome: { nextDueAt: Date | null; retrySoon: boolean } | { error: string } }
  /** Bree's stop request. */
  | "cancel";
