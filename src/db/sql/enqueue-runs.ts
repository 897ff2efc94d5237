import type { EntityManager } from "typeorm";
import type { JsonObject } from "../../domain/json.js";
import type { Run } from "../../domain/run.js";
import { preparedStatement } from "../prepared-statement.js";
import { threadLockOrder } from "./thread-lock-order.js";
import { runStatement } from "../run-statement.js";

/** Runs a multitask `interrupt` / `rollback` cancelled to make way for the new run. */
export interface RunsCancelledOnEnqueue {
  /** Pending runs: ended (interrupted; deleted under rollback). */
  endedRunIds: string[];
  /** Running runs: cancel_action set for the worker that holds them. */
  signalledRunIds: string[];
}

export type EnqueueOutcome =
  | { outcome: "created"; cancelled: RunsCancelledOnEnqueue }
  | { outcome: "assistant-changed" }
  /** The thread has active runs and the strategy is reject: nothing was written. */
  | { outcome: "busy" }
  | { outcome: "thread-missing" }
  /** Only with `skipLockedThread`: another transaction holds the thread; nothing was written. */
  | { outcome: "thread-locked" };

export interface RunToEnqueue {
  run: Run;
  /**
   * The run's metadata and kwargs as stored (sealed by the deployment's encrypt.json, or as they
   * are), and the encryption context they were sealed with (null: in clear). A thread the
   * statement creates for the run gets the same context.
   */
  stored: { metadata: JsonObject; kwargs: JsonObject; encryptionContext: JsonObject | null };
  /** The cron whose firing queues the run; null for API runs. */
  cronId: string | null;
  thread: {
    metadata: JsonObject;
    createIfMissing: boolean;
    /** Answer 'thread-locked' rather than wait for a thread another transaction holds (cron firings). */
    skipLockedThread: boolean;
  };
  /** The assistant version the run was composed from, to check it is still current; null: unchecked. */
  assistantSeen: { version: number; updatedAt: Date } | null;
}

const ENQUEUE_RUNS = preparedStatement(
  "enqueue_runs",
  `SELECT outcome, ended_run_ids, signalled_run_ids
   FROM hangar_enqueue_runs($1::uuid[], $2::uuid[], $3::uuid[], $4::jsonb[], $5::text[], $6::jsonb[], $7::timestamptz[],
     $8::timestamptz[], $9::uuid[], $10::jsonb[], $11::boolean[], $12::boolean[], $13::integer[], $14::timestamptz[], $15::jsonb[])`,
);

/**
 * Queues runs in one statement, hangar_enqueue_runs (migrations/…-decide-multitask-on-enqueue):
 * runs that bring a new thread are inserted together, the others go through hangar_enqueue_run one
 * by one. That function is where the multitask rule lives: under the thread's row lock (creating the thread when asked) it queues the run,
 * refuses it ('busy', nothing written) under `reject`, or first cancels the thread's active runs
 * under `interrupt` / `rollback`. With `assistantSeen`, it first checks the assistant is still
 * that version and otherwise answers 'assistant-changed' without writing anything. Answers per
 * run, in order. Outside a transaction the statement commits on its own; inside one (a batch of
 * runs, a cron firing) it is part of the caller's all-or-nothing.
 *
 * Runs are queued in thread lock order (thread-lock-order.ts; stable: of two runs of one thread
 * the second sees the first as active, as two statements would).
 */
export async function enqueueRuns(manager: EntityManager, entries: readonly RunToEnqueue[]): Promise<EnqueueOutcome[]> {
  if (entries.length === 0) return [];
  const order = threadLockOrder(entries, (entry) => entry.run.threadId);
  const sorted = order.map((index) => entries[index]!);
  const column = <T>(pick: (entry: RunToEnqueue) => T) => sorted.map(pick);
  const { rows } = await runStatement<{ outcome: EnqueueOutcome["outcome"]; ended_run_ids: string[]; signalled_run_ids: string[] }>(
    manager,
    ENQUEUE_RUNS,
    [
      column((entry) => entry.run.runId),
      column((entry) => entry.run.threadId),
      column((entry) => entry.run.assistantId),
      column((entry) => JSON.stringify(entry.stored.metadata)),
      column((entry) => entry.run.multitaskStrategy),
      column((entry) => JSON.stringify(entry.stored.kwargs)),
      column((entry) => entry.run.createdAt),
      column((entry) => entry.run.runAfter),
      column((entry) => entry.cronId),
      column((entry) => JSON.stringify(entry.thread.metadata)),
      column((entry) => entry.thread.createIfMissing),
      column((entry) => entry.thread.skipLockedThread),
      column((entry) => entry.assistantSeen?.version ?? null),
      column((entry) => entry.assistantSeen?.updatedAt ?? null),
      column((entry) => (entry.stored.encryptionContext === null ? null : JSON.stringify(entry.stored.encryptionContext))),
    ],
  );
  const outcomes: EnqueueOutcome[] = new Array(entries.length);
  order.forEach((index, position) => {
    const row = rows[position]!;
    outcomes[index] =
      row.outcome === "created"
        ? { outcome: "created", cancelled: { endedRunIds: row.ended_run_ids, signalledRunIds: row.signalled_run_ids } }
        : { outcome: row.outcome };
  });
  return outcomes;
}
