import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * hangar_enqueue_run learns to check the assistant version a run was composed from, so run
 * creation can compose from a remembered assistant instead of reading it first (a round trip on
 * every run): given the version and updated_at the caller saw, the function answers
 * 'assistant-changed' and writes nothing when the assistant was edited, re-versioned or deleted
 * since. Without them (NULL) it behaves as before. updated_at is compared at millisecond
 * precision, the precision of the JavaScript dates callers hold.
 */
export class CheckAssistantOnEnqueue1763760040000 implements MigrationInterface {
  name = "CheckAssistantOnEnqueue1763760040000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION hangar_enqueue_run(uuid, uuid, uuid, text, jsonb, text, jsonb, timestamptz, timestamptz, jsonb, boolean)`);
    await queryRunner.query(`
      CREATE FUNCTION hangar_enqueue_run(
        p_run_id uuid, p_thread_id uuid, p_assistant_id uuid, p_status text, p_metadata jsonb,
        p_multitask_strategy text, p_kwargs jsonb, p_created_at timestamptz, p_run_after timestamptz,
        p_thread_metadata jsonb, p_create_thread boolean, p_assistant_version integer, p_assistant_updated_at timestamptz
      ) RETURNS TABLE (outcome text, active_run_ids uuid[]) LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        v_active uuid[];
      BEGIN
        IF p_assistant_updated_at IS NOT NULL THEN
          PERFORM 1 FROM assistants WHERE assistant_id = p_assistant_id AND version = p_assistant_version
            AND date_trunc('milliseconds', updated_at) = p_assistant_updated_at;
          IF NOT FOUND THEN
            RETURN QUERY SELECT 'assistant-changed'::text, ARRAY[]::uuid[];
            RETURN;
          END IF;
        END IF;
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
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION hangar_enqueue_run(uuid, uuid, uuid, text, jsonb, text, jsonb, timestamptz, timestamptz, jsonb, boolean, integer, timestamptz)`);
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
  }
}
