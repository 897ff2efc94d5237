/**
 * A condition for a statement's WHERE clause that decides whether the statement's transaction,
 * when it commits, waits for PostgreSQL to flush its WAL to disk: `awaitFlush` is an SQL boolean
 * (a parameter such as `$4`, or `true` / `false`). When false, the transaction's
 * `synchronous_commit` is set to `off` (set_config with is_local: for this transaction only, the
 * implicit one of a single statement too, and for all of it); when true the setting is left as it
 * is. PostgreSQL reads the setting when the transaction commits.
 * The condition is always true and references no row, so PostgreSQL evaluates it once, as a
 * one-time filter, before the first row (test/db/commit-flush.test.ts checks each statement).
 *
 * Why: a run's output (its checkpoints under durability `async` / `exit`, its stream events, its
 * own trace) needs to be durable only once the run's outcome is, and the settle that records the
 * outcome commits synchronously after all of it has committed (settle-run.ts waits for them). A
 * synchronous commit flushes the WAL up to its own commit record, which comes after theirs, so
 * the outcome's flush makes them durable too. Until then only a crash of PostgreSQL itself (not of
 * Hangar) can lose them, and the run, not settled, is then resumed from its last durable
 * checkpoint like any run whose worker died. Committed without the flush they are answered
 * without waiting for a disk write (a single statement's latency fell from ~0.2 to ~0.08 ms on an
 * idle 2-core machine), and the WAL is flushed about once per settle instead of once per statement:
 * WAL syncs per run (pg_stat_wal) fell from 5.6 to 3.1 one run at a time and from 1.13 to 0.71 at
 * 16 concurrent runs (docs/run-lifecycle.md).
 *
 * Never for what is acknowledged to a client on its own: a queued run, a state edit, a Store item,
 * an ingested trace, a recorded outcome.
 */
export function commitFlushCondition(awaitFlush: string): string {
  return `(SELECT set_config('synchronous_commit', CASE WHEN ${awaitFlush}::boolean THEN current_setting('synchronous_commit') ELSE 'off' END, true)) IS NOT NULL`;
}
