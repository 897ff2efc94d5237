import type { CronTick, FiringEffects } from "../services/crons/fire-due-crons.js";

/**
 * What the main thread and the cron scheduler's worker thread say to each other over Bree's
 * message channel (structured clone: Dates survive, class instances do not).
 */

/** The job's workerData (Bree merges it with its own `job` key). */
export interface SchedulerJobData {
  /** PostgreSQL: the job fires crons on its own pool. null (embedded database): it asks the main thread to. */
  databaseUrl: string | null;
  logLevel: string;
  /** Crons claimed per transaction. */
  batchSize: number;
  safetyPollMs: number;
}

/** A tick's numbers without its effects, for logs and tests. */
export type TickSummary = Omit<CronTick, "effects">;

export type ToMainMessage =
  /** Embedded database: fire due crons here and answer with `fired`. */
  | { kind: "fire"; requestId: number }
  /** PostgreSQL: a tick committed in the job; announce its effects in this process. */
  | { kind: "announce"; effects: FiringEffects }
  /** After every tick that fired or deferred something, and after the first tick. */
  | { kind: "ticked"; tick: TickSummary }
  /** Bree's reply to `cancel`: the job stopped and may be terminated. */
  | "cancelled";

export type ToJobMessage =
  /** Crons changed in this process (embedded database: no NOTIFY reaches the job). */
  | { kind: "changed" }
  /** The answer to `fire`. */
  | { kind: "fired"; requestId: number; outcome: { nextDueAt: Date | null; retrySoon: boolean } | { error: string } }
  /** Bree's stop request. */
  | "cancel";
