import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Runs are the work queue: the worker claims `pending` rows with FOR UPDATE SKIP LOCKED.
 * Triggers announce queue changes with NOTIFY so workers and waiters on any process wake at once
 * instead of polling (on the embedded database, with one process, the same wake-ups are in-process).
 */
export class CreateRuns1763760002000 implements MigrationInterface {
  name = "CreateRuns1763760002000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE runs (
        run_id uuid PRIMARY KEY,
        thread_id uuid NOT NULL REFERENCES threads (thread_id) ON DELETE CASCADE,
        assistant_id uuid NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'running', 'success', 'error', 'timeout', 'interrupted')),
        metadata jsonb NOT NULL DEFAULT '{}',
        multitask_strategy text NOT NULL CHECK (multitask_strategy IN ('reject', 'interrupt', 'rollback', 'enqueue')),
        kwargs jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        run_after timestamptz NOT NULL,
        attempt integer NOT NULL DEFAULT 0,
        lease_owner text,
        lease_expires_at timestamptz,
        cancel_action text CHECK (cancel_action IN ('interrupt', 'rollback')),
        error jsonb
      )`);
    // The database, not the worker, guarantees one executing run per thread.
    await queryRunner.query(`CREATE UNIQUE INDEX runs_one_running_per_thread ON runs (thread_id) WHERE status = 'running'`);
    await queryRunner.query(`CREATE INDEX runs_pending_idx ON runs (run_after, created_at) WHERE status = 'pending'`);
    await queryRunner.query(`CREATE INDEX runs_running_lease_idx ON runs (lease_expires_at) WHERE status = 'running'`);
    await queryRunner.query(`CREATE INDEX runs_thread_idx ON runs (thread_id, created_at DESC)`);
    await queryRunner.query(`CREATE INDEX runs_assistant_idx ON runs (assistant_id)`);

    // Stored stream events: a client that reconnects with Last-Event-ID replays from here.
    await queryRunner.query(`
      CREATE TABLE run_events (
        run_id uuid NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        seq integer NOT NULL,
        event text NOT NULL,
        data text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (run_id, seq)
      )`);
    await queryRunner.query(`CREATE INDEX run_events_created_at_idx ON run_events (created_at)`);

    await queryRunner.query(`
      CREATE FUNCTION hangar_announce_run_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          PERFORM pg_notify('hangar_run_done', OLD.run_id::text);
          RETURN NULL;
        END IF;
        IF NEW.status = 'pending' AND (TG_OP = 'INSERT' OR OLD.status <> 'pending') THEN
          -- The payload is when the run becomes due (after_seconds), in epoch milliseconds.
          PERFORM pg_notify('hangar_run_pending', (extract(epoch FROM NEW.run_after) * 1000)::bigint::text);
        END IF;
        IF TG_OP = 'UPDATE' THEN
          IF NEW.cancel_action IS NOT NULL AND OLD.cancel_action IS NULL THEN
            PERFORM pg_notify('hangar_run_cancel', NEW.run_id::text);
          END IF;
          IF NEW.status NOT IN ('pending', 'running') AND OLD.status IN ('pending', 'running') THEN
            PERFORM pg_notify('hangar_run_done', NEW.run_id::text);
          END IF;
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER runs_announce_change AFTER INSERT OR UPDATE OR DELETE ON runs
      FOR EACH ROW EXECUTE FUNCTION hangar_announce_run_change()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE run_events`);
    await queryRunner.query(`DROP TABLE runs`);
    await queryRunner.query(`DROP FUNCTION hangar_announce_run_change()`);
  }
}
