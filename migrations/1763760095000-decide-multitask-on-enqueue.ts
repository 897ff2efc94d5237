import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The multitask rule in one place (docs/run-lifecycle.md, invariant 1): hangar_enqueue_run decides
 * what a new run does on a busy thread for every caller (run creation, run batches, cron firings),
 * under the thread's row lock and in the caller's statement:
 * - `enqueue`: queue behind the active runs (their order is the claim's: oldest first);
 * - `reject`: write nothing, answer 'busy';
 * - `interrupt` / `rollback`: cancel the active runs with that action (hangar_cancel_runs), then
 *   queue. Nothing is written unless the run is queued, so a refusal never leaves half a decision.
 *
 * hangar_cancel_runs is the one cancel statement, also behind the cancel API: a pending run ends
 * at once (`interrupted`; with `rollback` its row is deleted, since it never ran and wrote
 * nothing); a running one gets cancel_action for the worker that holds it (the runs trigger
 * NOTIFYs hangar_run_cancel), which aborts and settles it.
 *
 * Cron firings call the enqueue function with p_skip_locked_thread: the firing's transaction
 * already holds cron row locks, and a thread being deleted is locked first and then waits for its
 * crons (ON DELETE CASCADE), so waiting for the thread could deadlock. A thread locked elsewhere
 * answers 'thread-locked' (nothing written; the firing waits for the next tick).
 *
 * A thread the function creates (stateless runs, if_not_exists create) is inserted busy with its
 * run; a new thread has no runs, so there is nothing to decide and nothing else to lock.
 *
 * hangar_enqueue_runs queues a batch (all the runs of a batched statement, a cron batch of up to
 * 1,000): the runs that bring a new thread (unchecked assistant) are inserted with their threads
 * in two set-based statements, since per-row inserts cost a cron batch 2-3 times the time
 * (measured: 1,000 stateless firings, 44 ms set-based against 120-200 ms one row at a time); the
 * others go through hangar_enqueue_run one by one, in the given order (the caller's thread lock
 * order), so a run sees the runs queued before it on its thread, as two statements would.
 */
export class DecideMultitaskOnEnqueue1763760095000 implements MigrationInterface {
  name = "DecideMultitaskOnEnqueue1763760095000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION hangar_cancel_runs(p_run_ids uuid[], p_action text, p_now timestamptz)
      RETURNS TABLE (cancelled_run_id uuid, cancelled_thread_id uuid, ended boolean) LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        IF p_action NOT IN ('interrupt', 'rollback') THEN
          RAISE EXCEPTION 'unknown cancel action %', p_action;
        END IF;
        IF p_action = 'rollback' THEN
          RETURN QUERY DELETE FROM runs r WHERE r.run_id = ANY(p_run_ids) AND r.status = 'pending'
            RETURNING r.run_id, r.thread_id, true;
        END IF;
        RETURN QUERY UPDATE runs r SET cancel_action = p_action, updated_at = p_now,
            status = CASE WHEN r.status = 'pending' THEN 'interrupted' ELSE r.status END
          WHERE r.run_id = ANY(p_run_ids) AND r.status IN ('pending', 'running')
          RETURNING r.run_id, r.thread_id, r.status = 'interrupted';
      END $$`);
    await queryRunner.query(`DROP FUNCTION hangar_enqueue_run(uuid, uuid, uuid, text, jsonb, text, jsonb, timestamptz, timestamptz, jsonb, boolean, integer, timestamptz)`);
    await queryRunner.query(`
      CREATE FUNCTION hangar_enqueue_run(
        p_run_id uuid, p_thread_id uuid, p_assistant_id uuid, p_metadata jsonb, p_multitask_strategy text,
        p_kwargs jsonb, p_created_at timestamptz, p_run_after timestamptz, p_cron_id uuid,
        p_thread_metadata jsonb, p_create_thread boolean, p_skip_locked_thread boolean,
        p_assistant_version integer, p_assistant_updated_at timestamptz
      ) RETURNS TABLE (outcome text, ended_run_ids uuid[], signalled_run_ids uuid[]) LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        v_active uuid[];
        v_ended uuid[] := ARRAY[]::uuid[];
        v_signalled uuid[] := ARRAY[]::uuid[];
      BEGIN
        IF p_multitask_strategy NOT IN ('reject', 'enqueue', 'interrupt', 'rollback') THEN
          RAISE EXCEPTION 'unknown multitask strategy %', p_multitask_strategy;
        END IF;
        IF p_assistant_updated_at IS NOT NULL THEN
          PERFORM 1 FROM assistants WHERE assistant_id = p_assistant_id AND version = p_assistant_version
            AND date_trunc('milliseconds', updated_at) = p_assistant_updated_at;
          IF NOT FOUND THEN
            RETURN QUERY SELECT 'assistant-changed'::text, v_ended, v_signalled;
            RETURN;
          END IF;
        END IF;
        IF p_create_thread THEN
          INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at, metadata, status)
          VALUES (p_thread_id, p_created_at, p_created_at, p_created_at, p_thread_metadata, 'busy')
          ON CONFLICT (thread_id) DO NOTHING;
          IF FOUND THEN
            INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, multitask_strategy, kwargs,
              created_at, updated_at, run_after, attempt, cron_id)
            VALUES (p_run_id, p_thread_id, p_assistant_id, 'pending', p_metadata, p_multitask_strategy, p_kwargs,
              p_created_at, p_created_at, p_run_after, 0, p_cron_id);
            RETURN QUERY SELECT 'created'::text, v_ended, v_signalled;
            RETURN;
          END IF;
        END IF;
        IF p_skip_locked_thread THEN
          PERFORM 1 FROM threads WHERE thread_id = p_thread_id FOR UPDATE SKIP LOCKED;
        ELSE
          PERFORM 1 FROM threads WHERE thread_id = p_thread_id FOR UPDATE;
        END IF;
        IF NOT FOUND THEN
          RETURN QUERY SELECT CASE WHEN p_skip_locked_thread AND EXISTS (SELECT 1 FROM threads WHERE thread_id = p_thread_id)
            THEN 'thread-locked' ELSE 'thread-missing' END, v_ended, v_signalled;
          RETURN;
        END IF;
        IF p_multitask_strategy <> 'enqueue' THEN
          SELECT coalesce(array_agg(run_id ORDER BY created_at), ARRAY[]::uuid[]) INTO v_active
          FROM runs WHERE thread_id = p_thread_id AND status IN ('pending', 'running');
          IF cardinality(v_active) > 0 THEN
            IF p_multitask_strategy = 'reject' THEN
              RETURN QUERY SELECT 'busy'::text, v_ended, v_signalled;
              RETURN;
            END IF;
            SELECT coalesce(array_agg(c.cancelled_run_id) FILTER (WHERE c.ended), ARRAY[]::uuid[]),
                   coalesce(array_agg(c.cancelled_run_id) FILTER (WHERE NOT c.ended), ARRAY[]::uuid[])
            INTO v_ended, v_signalled
            FROM hangar_cancel_runs(v_active, p_multitask_strategy, p_created_at) c;
          END IF;
        END IF;
        INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, multitask_strategy, kwargs,
          created_at, updated_at, run_after, attempt, cron_id)
        VALUES (p_run_id, p_thread_id, p_assistant_id, 'pending', p_metadata, p_multitask_strategy, p_kwargs,
          p_created_at, p_created_at, p_run_after, 0, p_cron_id);
        UPDATE threads SET status = 'busy', metadata = metadata || p_thread_metadata, updated_at = p_created_at
        WHERE thread_id = p_thread_id;
        RETURN QUERY SELECT 'created'::text, v_ended, v_signalled;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION hangar_enqueue_runs(
        p_run_ids uuid[], p_thread_ids uuid[], p_assistant_ids uuid[], p_metadata jsonb[], p_strategies text[],
        p_kwargs jsonb[], p_created_at timestamptz[], p_run_after timestamptz[], p_cron_ids uuid[],
        p_thread_metadata jsonb[], p_create_thread boolean[], p_skip_locked_thread boolean[],
        p_assistant_versions integer[], p_assistant_updated_at timestamptz[]
      ) RETURNS TABLE (outcome text, ended_run_ids uuid[], signalled_run_ids uuid[]) LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        v_count integer := coalesce(cardinality(p_run_ids), 0);
        -- Per run, the outcome of the set-based paths; v_decided false: hangar_enqueue_run decides
        -- below. (A boolean array is indexed in constant time; a text one is walked.)
        v_outcomes text[] := array_fill(''::text, ARRAY[v_count]);
        v_decided boolean[] := array_fill(false, ARRAY[v_count]);
        v_new_ords bigint[];
        v_queue_threads uuid[];
        v_locked uuid[];
        v_existing uuid[];
        v_ord bigint;
        r record;
      BEGIN
        IF v_count = 0 THEN
          RETURN;
        END IF;
        IF EXISTS (SELECT 1 FROM unnest(p_strategies) s WHERE s NOT IN ('reject', 'enqueue', 'interrupt', 'rollback')) THEN
          RAISE EXCEPTION 'unknown multitask strategy in %', p_strategies;
        END IF;

        -- 1. New threads, each with its first run: nothing to decide (a thread created here has no runs).
        WITH candidates AS (
          SELECT DISTINCT ON (u.thread_id) u.thread_id, u.created_at, u.thread_metadata, u.ord
          FROM unnest(p_thread_ids, p_create_thread, p_assistant_updated_at, p_created_at, p_thread_metadata)
            WITH ORDINALITY AS u (thread_id, create_thread, assistant_updated_at, created_at, thread_metadata, ord)
          WHERE u.create_thread AND u.assistant_updated_at IS NULL
          ORDER BY u.thread_id, u.ord
        ), inserted AS (
          INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at, metadata, status)
          SELECT c.thread_id, c.created_at, c.created_at, c.created_at, c.thread_metadata, 'busy' FROM candidates c
          ORDER BY c.thread_id
          ON CONFLICT (thread_id) DO NOTHING
          RETURNING thread_id
        )
        SELECT coalesce(array_agg(c.ord), ARRAY[]::bigint[]) INTO v_new_ords
        FROM candidates c JOIN inserted i ON i.thread_id = c.thread_id;
        IF cardinality(v_new_ords) > 0 THEN
          INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, multitask_strategy, kwargs,
            created_at, updated_at, run_after, attempt, cron_id)
          SELECT u.run_id, u.thread_id, u.assistant_id, 'pending', u.metadata, u.strategy, u.kwargs,
            u.created_at, u.created_at, u.run_after, 0, u.cron_id
          FROM unnest(p_run_ids, p_thread_ids, p_assistant_ids, p_metadata, p_strategies, p_kwargs, p_created_at,
                      p_run_after, p_cron_ids)
            WITH ORDINALITY AS u (run_id, thread_id, assistant_id, metadata, strategy, kwargs, created_at, run_after, cron_id, ord)
          JOIN unnest(v_new_ords) AS n (ord) ON n.ord = u.ord
          ORDER BY u.ord;
          FOREACH v_ord IN ARRAY v_new_ords LOOP
            v_outcomes[v_ord] := 'created';
            v_decided[v_ord] := true;
          END LOOP;
        END IF;

        -- 2. Existing threads whose runs here all queue (enqueue, assistant unchecked) and that are
        -- skipped when locked (cron firings): nothing to decide either, so locked, queued and
        -- marked busy together. Never waits for a lock, so it cannot deadlock with the per-run
        -- locking below.
        SELECT coalesce(array_agg(g.thread_id ORDER BY g.thread_id), ARRAY[]::uuid[]) INTO v_queue_threads FROM (
          SELECT u.thread_id
          FROM unnest(p_thread_ids, p_strategies, p_skip_locked_thread, p_assistant_updated_at)
            WITH ORDINALITY AS u (thread_id, strategy, skip_locked_thread, assistant_updated_at, ord)
          WHERE NOT v_decided[u.ord]
          GROUP BY u.thread_id
          HAVING bool_and(u.strategy = 'enqueue' AND u.skip_locked_thread AND u.assistant_updated_at IS NULL)
        ) g;
        IF cardinality(v_queue_threads) > 0 THEN
          SELECT coalesce(array_agg(l.thread_id), ARRAY[]::uuid[]) INTO v_locked FROM (
            SELECT thread_id FROM threads WHERE thread_id = ANY(v_queue_threads) ORDER BY thread_id FOR UPDATE SKIP LOCKED
          ) l;
          SELECT coalesce(array_agg(thread_id), ARRAY[]::uuid[]) INTO v_existing FROM threads WHERE thread_id = ANY(v_queue_threads);
          INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, multitask_strategy, kwargs,
            created_at, updated_at, run_after, attempt, cron_id)
          SELECT u.run_id, u.thread_id, u.assistant_id, 'pending', u.metadata, u.strategy, u.kwargs,
            u.created_at, u.created_at, u.run_after, 0, u.cron_id
          FROM unnest(p_run_ids, p_thread_ids, p_assistant_ids, p_metadata, p_strategies, p_kwargs, p_created_at,
                      p_run_after, p_cron_ids)
            WITH ORDINALITY AS u (run_id, thread_id, assistant_id, metadata, strategy, kwargs, created_at, run_after, cron_id, ord)
          JOIN unnest(v_locked) AS l (thread_id) ON l.thread_id = u.thread_id
          WHERE NOT v_decided[u.ord]
          ORDER BY u.ord;
          -- As one run after another would leave it: the last run's thread metadata merged last.
          UPDATE threads t SET status = 'busy', metadata = t.metadata || m.thread_metadata, updated_at = m.created_at
          FROM (
            SELECT DISTINCT ON (u.thread_id) u.thread_id, u.thread_metadata, u.created_at
            FROM unnest(p_thread_ids, p_thread_metadata, p_created_at) WITH ORDINALITY AS u (thread_id, thread_metadata, created_at, ord)
            JOIN unnest(v_locked) AS l (thread_id) ON l.thread_id = u.thread_id
            WHERE NOT v_decided[u.ord]
            ORDER BY u.thread_id, u.ord DESC
          ) m
          WHERE t.thread_id = m.thread_id;
          FOR r IN
            SELECT u.ord, CASE WHEN l.thread_id IS NOT NULL THEN 'created'
                               WHEN e.thread_id IS NOT NULL THEN 'thread-locked'
                               ELSE 'thread-missing' END AS outcome
            FROM unnest(p_thread_ids) WITH ORDINALITY AS u (thread_id, ord)
            JOIN unnest(v_queue_threads) AS q (thread_id) ON q.thread_id = u.thread_id
            LEFT JOIN unnest(v_locked) AS l (thread_id) ON l.thread_id = u.thread_id
            LEFT JOIN unnest(v_existing) AS e (thread_id) ON e.thread_id = u.thread_id
            WHERE NOT v_decided[u.ord]
          LOOP
            v_outcomes[r.ord] := r.outcome;
            v_decided[r.ord] := true;
          END LOOP;
        END IF;

        -- 3. The others one by one, in the given order (the caller's thread lock order).
        FOR r IN
          SELECT * FROM unnest(p_run_ids, p_thread_ids, p_assistant_ids, p_metadata, p_strategies, p_kwargs, p_created_at,
                               p_run_after, p_cron_ids, p_thread_metadata, p_create_thread, p_skip_locked_thread,
                               p_assistant_versions, p_assistant_updated_at)
            WITH ORDINALITY AS u (run_id, thread_id, assistant_id, metadata, strategy, kwargs, created_at, run_after, cron_id,
                                  thread_metadata, create_thread, skip_locked_thread, assistant_version, assistant_updated_at, ord)
          ORDER BY u.ord
        LOOP
          IF v_decided[r.ord] THEN
            outcome := v_outcomes[r.ord];
            ended_run_ids := ARRAY[]::uuid[];
            signalled_run_ids := ARRAY[]::uuid[];
            RETURN NEXT;
          ELSE
            RETURN QUERY SELECT e.outcome, e.ended_run_ids, e.signalled_run_ids FROM hangar_enqueue_run(
              r.run_id, r.thread_id, r.assistant_id, r.metadata, r.strategy, r.kwargs, r.created_at, r.run_after, r.cron_id,
              r.thread_metadata, r.create_thread, r.skip_locked_thread, r.assistant_version, r.assistant_updated_at) e;
          END IF;
        END LOOP;
      END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP FUNCTION hangar_enqueue_runs(uuid[], uuid[], uuid[], jsonb[], text[], jsonb[], timestamptz[], timestamptz[], uuid[], jsonb[], boolean[], boolean[], integer[], timestamptz[])`,
    );
    await queryRunner.query(
      `DROP FUNCTION hangar_enqueue_run(uuid, uuid, uuid, jsonb, text, jsonb, timestamptz, timestamptz, uuid, jsonb, boolean, boolean, integer, timestamptz)`,
    );
    await queryRunner.query(`DROP FUNCTION hangar_cancel_runs(uuid[], text, timestamptz)`);
    // The previous version (migrations/1763760040000-check-assistant-on-enqueue.ts): queues when
    // no decision is needed, otherwise answers 'busy' with the active runs for the caller to decide.
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
}
