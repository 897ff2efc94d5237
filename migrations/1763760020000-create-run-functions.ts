import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The two multi-statement transactions on every run's path, as functions so each costs one
 * round trip instead of five or six. Measured on the 2-core bench machine: every round trip costs
 * the server ~0.1 ms of CPU and PostgreSQL ~0.25 ms, and these two transactions were 11 of a run's
 * 30 round trips.
 *
 * Both run under READ COMMITTED, and plpgsql gives every statement inside a VOLATILE function a
 * fresh snapshot. That is what makes them correct: the thread row is locked by one statement, and
 * the statements after it see every run committed by whoever held that lock before. (A single
 * CTE could not do this: all its parts share the snapshot taken before the lock wait.)
 */
export class CreateRunFunctions1763760020000 implements MigrationInterface {
  name = "CreateRunFunctions1763760020000";

  async up(queryRunner: QueryRunner): Promise<void> {
    // Queues a run when no multitask decision is needed: the thread has no active run, or the
    // strategy is enqueue. Otherwise it changes nothing and answers 'busy' with the active runs,
    // and the caller applies reject / interrupt / rollback in its own transaction.
    await queryRunner.query(`
      CREATE FUNCTION hangar_enqueue_run(
        p_run_id uuid, p_thread_id uuid, p_assistant_id uuid, p_status text, p_metadata jsonb,
        p_multitask_strategy text, p_kwargs jsonb, p_created_at timestamptz, p_run_after timestamptz,
        p_thread_metadata jsonb, p_create_thread boolean
      ) RETURNS TABLE (outcome text, active_run_ids uuid[]) LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        v_active uuid[];
      BEGIN
        PERFORM 1 FROM threads WHERE thread_id = p_thread_id FOR UPDATE;
        IF NOT FOUND THEN
          IF NOT p_create_thread THEN
            RETURN QUERY SELECT 'thread-missing'::text, ARRAY[]::uuid[];
            RETURN;
          END IF;
          INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at, metadata)
          VALUES (p_thread_id, p_created_at, p_created_at, p_created_at, p_thread_metadata)
          ON CONFLICT (thread_id) DO NOTHING;
          PERFORM 1 FROM threads WHERE thread_id = p_thread_id FOR UPDATE;
        END IF;
        SELECT coalesce(array_agg(run_id ORDER BY created_at), ARRAY[]::uuid[]) INTO v_active
        FROM runs WHERE thread_id = p_thread_id AND status IN ('pending', 'running');
        IF cardinality(v_active) > 0 AND p_multitask_strategy <> 'enqueue' THEN
          RETURN QUERY SELECT 'busy'::text, v_active;
          RETURN;
        END IF;
        INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, multitask_strategy, kwargs,
          created_at, updated_at, run_after, attempt)
        VALUES (p_run_id, p_thread_id, p_assistant_id, p_status, p_metadata, p_multitask_strategy, p_kwargs,
          p_created_at, p_created_at, p_run_after, 0);
        UPDATE threads SET status = 'busy', metadata = metadata || p_thread_metadata, updated_at = p_created_at
        WHERE thread_id = p_thread_id;
        RETURN QUERY SELECT 'created'::text, v_active;
      END $$`);

    // Records a finished run and the thread it leaves behind, only while the worker still holds
    // the run's lease (a worker that lost it must not overwrite the run another worker took
    // over). The thread stays busy when other runs are queued on it; the answer says so, because
    // the worker then has a run to claim.
    await queryRunner.query(`
      CREATE FUNCTION hangar_settle_run(
        p_run_id uuid, p_worker_id text, p_status text, p_error jsonb, p_now timestamptz,
        p_thread_id uuid, p_values jsonb, p_interrupts jsonb, p_thread_status text, p_thread_error jsonb
      ) RETURNS TABLE (recorded boolean, thread_has_active_runs boolean) LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        v_active boolean;
      BEGIN
        UPDATE runs SET status = p_status, error = p_error, updated_at = p_now, lease_owner = NULL, lease_expires_at = NULL
        WHERE run_id = p_run_id AND lease_owner = p_worker_id AND status = 'running';
        IF NOT FOUND THEN
          RETURN QUERY SELECT false, false;
          RETURN;
        END IF;
        PERFORM 1 FROM threads WHERE thread_id = p_thread_id FOR UPDATE;
        v_active := EXISTS (SELECT 1 FROM runs WHERE thread_id = p_thread_id AND status IN ('pending', 'running'));
        UPDATE threads SET values = p_values, interrupts = p_interrupts,
          status = CASE WHEN v_active THEN 'busy' ELSE p_thread_status END,
          error = p_thread_error, updated_at = p_now, state_updated_at = p_now
        WHERE thread_id = p_thread_id;
        RETURN QUERY SELECT true, v_active;
      END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION hangar_settle_run(uuid, text, text, jsonb, timestamptz, uuid, jsonb, jsonb, text, jsonb)`);
    await queryRunner.query(
      `DROP FUNCTION hangar_enqueue_run(uuid, uuid, uuid, text, jsonb, text, jsonb, timestamptz, timestamptz, jsonb, boolean)`,
    );
  }
}
