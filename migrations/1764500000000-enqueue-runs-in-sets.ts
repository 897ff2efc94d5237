import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * hangar_enqueue_runs decides in sets what needs no per-run decision, the same outcomes as the
 * function it replaces (migrations/…-add-run-encryption-context), at lower cost:
 * - runs on new threads (stateless runs and crons): the threads and their runs are inserted in one
 *   statement. The previous body joined the candidates with the threads it inserted; on the
 *   generic plan (estimates of 1 row a side) that join was a nested loop, 1,000,000 comparisons
 *   for a batch of 1,000 stateless firings;
 * - enqueue runs on existing threads skipped when locked (thread cron firings): locked, queued and
 *   the threads marked busy in one statement (was four, plus a fifth to tell locked from missing);
 * - the answer, when every run was decided so, is one query instead of a loop over the runs, and
 *   the input arrays are unnested once per step (the per-run loop, which unnested them again for
 *   every batch, runs only for the runs it decides);
 * - steps with nothing to do are skipped by a test on the arrays, without a query (an API run on
 *   an existing thread goes straight to the per-run step);
 * - its statements run on generic plans from the first call (SET plan_cache_mode): PL/pgSQL would
 *   plan the first five calls on each connection for their arrays' values, copying 1,000-element
 *   jsonb arrays into every plan, and a cron tick's batches mostly run on such fresh plans. The
 *   statements are written to be linear on generic plans (no join whose method the estimates of
 *   a few rows per array could turn into a nested loop over the batch).
 * Measured on a loaded 2-core machine, PostgreSQL backend CPU for a batch of 1,000 firings
 * (the enqueue statement and the firings insert), on plans PL/pgSQL has cached: stateless 85 ms
 * before, 54 ms after (f80b910's separate statements: 44 ms); thread crons 67 ms before, 63 ms
 * after (f80b910: 57 ms). On a connection's first calls: stateless 87 ms before, 62 ms after
 * (f80b910: 73 ms), thread crons 100 ms before, 78 ms after (f80b910: 88 ms). An API batch (1 or
 * 16 runs on existing threads) costs what it did.
 *
 * The signature and answer are unchanged (CREATE OR REPLACE); down() restores the previous body.
 */
const SIGNATURE = `
      CREATE OR REPLACE FUNCTION hangar_enqueue_runs(
        p_run_ids uuid[], p_thread_ids uuid[], p_assistant_ids uuid[], p_metadata jsonb[], p_strategies text[],
        p_kwargs jsonb[], p_created_at timestamptz[], p_run_after timestamptz[], p_cron_ids uuid[],
        p_thread_metadata jsonb[], p_create_thread boolean[], p_skip_locked_thread boolean[],
        p_assistant_versions integer[], p_assistant_updated_at timestamptz[], p_encryption_contexts jsonb[]
      ) RETURNS TABLE (outcome text, ended_run_ids uuid[], signalled_run_ids uuid[]) LANGUAGE plpgsql VOLATILE`;

const SET_BASED_BODY = ` SET plan_cache_mode = force_generic_plan AS $$
      DECLARE
        v_count integer := coalesce(cardinality(p_run_ids), 0);
        -- Per run: decided by a set-based step below (its outcome in v_outcomes), or not yet
        -- (hangar_enqueue_run decides it). A boolean array for the filters: indexed in constant time.
        v_decided boolean[];
        v_outcomes text[];
        v_undecided integer := v_count;
        v_ords bigint[];
        v_step_outcomes text[];
        i integer;
        r record;
      BEGIN
        IF v_count = 0 THEN
          RETURN;
        END IF;
        IF NOT p_strategies <@ ARRAY['reject', 'enqueue', 'interrupt', 'rollback'] THEN
          RAISE EXCEPTION 'unknown multitask strategy in %', p_strategies;
        END IF;
        v_decided := array_fill(false, ARRAY[v_count]);
        v_outcomes := array_fill(NULL::text, ARRAY[v_count]);

        -- 1. New threads, each with its first run: nothing to decide (a thread created here has no
        -- runs). One statement: threads, then the runs of those whose insert created them.
        IF true = ANY(p_create_thread) THEN
          WITH candidates AS MATERIALIZED (
            SELECT DISTINCT ON (u.thread_id) u.*
            FROM unnest(p_run_ids, p_thread_ids, p_assistant_ids, p_metadata, p_strategies, p_kwargs, p_created_at,
                        p_run_after, p_cron_ids, p_thread_metadata, p_create_thread, p_assistant_updated_at, p_encryption_contexts)
              WITH ORDINALITY AS u (run_id, thread_id, assistant_id, metadata, strategy, kwargs, created_at,
                                    run_after, cron_id, thread_metadata, create_thread, assistant_updated_at, encryption_context, ord)
            WHERE u.create_thread AND u.assistant_updated_at IS NULL
            ORDER BY u.thread_id, u.ord
          ), new_threads AS (
            INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at, metadata, status, encryption_context)
            SELECT c.thread_id, c.created_at, c.created_at, c.created_at, c.thread_metadata, 'busy', c.encryption_context
            FROM candidates c ORDER BY c.thread_id
            ON CONFLICT (thread_id) DO NOTHING
            RETURNING thread_id
          ), queued AS MATERIALIZED (
            -- Usually every candidate's thread was new (the counts agree) and no lookup is needed.
            -- Otherwise the lookup stays a hashed subplan under the OR: as a join it could be planned
            -- as a nested loop on the generic plan's estimates of 1 row a side.
            SELECT c.* FROM candidates c
            WHERE (SELECT count(*) FROM new_threads) = (SELECT count(*) FROM candidates)
               OR c.thread_id IN (SELECT n.thread_id FROM new_threads n)
          ), new_runs AS (
            INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, multitask_strategy, kwargs,
              created_at, updated_at, run_after, attempt, cron_id, encryption_context)
            SELECT q.run_id, q.thread_id, q.assistant_id, 'pending', q.metadata, q.strategy, q.kwargs,
              q.created_at, q.created_at, q.run_after, 0, q.cron_id, q.encryption_context
            FROM queued q ORDER BY q.ord
          )
          SELECT coalesce(array_agg(q.ord), ARRAY[]::bigint[]) INTO v_ords FROM queued q;
          FOR i IN 1 .. cardinality(v_ords) LOOP
            v_decided[v_ords[i]] := true;
            v_outcomes[v_ords[i]] := 'created';
          END LOOP;
          v_undecided := v_undecided - cardinality(v_ords);
        END IF;

        -- 2. Existing threads whose runs here all queue (enqueue, assistant unchecked) and that are
        -- skipped when locked (cron firings): nothing to decide either, so locked, queued and
        -- marked busy in one statement. Never waits for a lock, so it cannot deadlock with the
        -- per-run locking below.
        IF v_undecided > 0 AND 'enqueue' = ANY(p_strategies) AND true = ANY(p_skip_locked_thread) THEN
          WITH undecided AS (
            SELECT u.*, bool_and(u.strategy = 'enqueue' AND u.skip_locked_thread AND u.assistant_updated_at IS NULL)
                          OVER (PARTITION BY u.thread_id) AS thread_queues
            FROM unnest(p_run_ids, p_thread_ids, p_assistant_ids, p_metadata, p_strategies, p_kwargs, p_created_at,
                        p_run_after, p_cron_ids, p_thread_metadata, p_skip_locked_thread, p_assistant_updated_at, p_encryption_contexts)
              WITH ORDINALITY AS u (run_id, thread_id, assistant_id, metadata, strategy, kwargs, created_at,
                                    run_after, cron_id, thread_metadata, skip_locked_thread, assistant_updated_at, encryption_context, ord)
            WHERE NOT v_decided[u.ord]
          ), queueing AS MATERIALIZED (
            SELECT d.*, l.thread_id IS NOT NULL AS is_locked
            FROM undecided d
            LEFT JOIN LATERAL (SELECT t.thread_id FROM threads t WHERE t.thread_id = d.thread_id FOR UPDATE SKIP LOCKED) l ON true
            WHERE d.thread_queues
          ), new_runs AS (
            INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, multitask_strategy, kwargs,
              created_at, updated_at, run_after, attempt, cron_id, encryption_context)
            SELECT q.run_id, q.thread_id, q.assistant_id, 'pending', q.metadata, q.strategy, q.kwargs,
              q.created_at, q.created_at, q.run_after, 0, q.cron_id, q.encryption_context
            FROM queueing q WHERE q.is_locked ORDER BY q.ord
          ), busy_threads AS (
            -- As one run after another would leave it: the last run's thread metadata merged last.
            UPDATE threads t SET status = 'busy', metadata = t.metadata || m.thread_metadata, updated_at = m.created_at
            FROM (
              SELECT DISTINCT ON (q.thread_id) q.thread_id, q.thread_metadata, q.created_at
              FROM queueing q WHERE q.is_locked
              ORDER BY q.thread_id, q.ord DESC
            ) m
            WHERE t.thread_id = m.thread_id
          )
          SELECT coalesce(array_agg(q.ord), ARRAY[]::bigint[]),
                 coalesce(array_agg(CASE WHEN q.is_locked THEN 'created'
                                         WHEN EXISTS (SELECT 1 FROM threads t WHERE t.thread_id = q.thread_id) THEN 'thread-locked'
                                         ELSE 'thread-missing' END), ARRAY[]::text[])
          INTO v_ords, v_step_outcomes
          FROM queueing q;
          FOR i IN 1 .. cardinality(v_ords) LOOP
            v_decided[v_ords[i]] := true;
            v_outcomes[v_ords[i]] := v_step_outcomes[i];
          END LOOP;
          v_undecided := v_undecided - cardinality(v_ords);
        END IF;

        -- All decided (a cron batch, a batch of new threads): the answer in one query, in order.
        IF v_undecided = 0 THEN
          RETURN QUERY SELECT o.outcome, ARRAY[]::uuid[], ARRAY[]::uuid[]
            FROM unnest(v_outcomes) WITH ORDINALITY AS o (outcome, ord) ORDER BY o.ord;
          RETURN;
        END IF;

        -- 3. The others one by one, in the given order (the caller's thread lock order).
        FOR r IN
          SELECT * FROM unnest(p_run_ids, p_thread_ids, p_assistant_ids, p_metadata, p_strategies, p_kwargs, p_created_at,
                               p_run_after, p_cron_ids, p_thread_metadata, p_create_thread, p_skip_locked_thread,
                               p_assistant_versions, p_assistant_updated_at, p_encryption_contexts)
            WITH ORDINALITY AS u (run_id, thread_id, assistant_id, metadata, strategy, kwargs, created_at, run_after, cron_id,
                                  thread_metadata, create_thread, skip_locked_thread, assistant_version, assistant_updated_at, encryption_context, ord)
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
              r.thread_metadata, r.create_thread, r.skip_locked_thread, r.assistant_version, r.assistant_updated_at, r.encryption_context) e;
          END IF;
        END LOOP;
      END $$`;

/** The body of migrations/1764300000000-add-run-encryption-context.ts, verbatim. */
const PREVIOUS_BODY = ` AS $$
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
          SELECT DISTINCT ON (u.thread_id) u.thread_id, u.created_at, u.thread_metadata, u.encryption_context, u.ord
          FROM unnest(p_thread_ids, p_create_thread, p_assistant_updated_at, p_created_at, p_thread_metadata, p_encryption_contexts)
            WITH ORDINALITY AS u (thread_id, create_thread, assistant_updated_at, created_at, thread_metadata, encryption_context, ord)
          WHERE u.create_thread AND u.assistant_updated_at IS NULL
          ORDER BY u.thread_id, u.ord
        ), inserted AS (
          INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at, metadata, status, encryption_context)
          SELECT c.thread_id, c.created_at, c.created_at, c.created_at, c.thread_metadata, 'busy', c.encryption_context FROM candidates c
          ORDER BY c.thread_id
          ON CONFLICT (thread_id) DO NOTHING
          RETURNING thread_id
        )
        SELECT coalesce(array_agg(c.ord), ARRAY[]::bigint[]) INTO v_new_ords
        FROM candidates c JOIN inserted i ON i.thread_id = c.thread_id;
        IF cardinality(v_new_ords) > 0 THEN
          INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, multitask_strategy, kwargs,
            created_at, updated_at, run_after, attempt, cron_id, encryption_context)
          SELECT u.run_id, u.thread_id, u.assistant_id, 'pending', u.metadata, u.strategy, u.kwargs,
            u.created_at, u.created_at, u.run_after, 0, u.cron_id, u.encryption_context
          FROM unnest(p_run_ids, p_thread_ids, p_assistant_ids, p_metadata, p_strategies, p_kwargs, p_created_at,
                      p_run_after, p_cron_ids, p_encryption_contexts)
            WITH ORDINALITY AS u (run_id, thread_id, assistant_id, metadata, strategy, kwargs, created_at, run_after, cron_id, encryption_context, ord)
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
            created_at, updated_at, run_after, attempt, cron_id, encryption_context)
          SELECT u.run_id, u.thread_id, u.assistant_id, 'pending', u.metadata, u.strategy, u.kwargs,
            u.created_at, u.created_at, u.run_after, 0, u.cron_id, u.encryption_context
          FROM unnest(p_run_ids, p_thread_ids, p_assistant_ids, p_metadata, p_strategies, p_kwargs, p_created_at,
                      p_run_after, p_cron_ids, p_encryption_contexts)
            WITH ORDINALITY AS u (run_id, thread_id, assistant_id, metadata, strategy, kwargs, created_at, run_after, cron_id, encryption_context, ord)
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
                               p_assistant_versions, p_assistant_updated_at, p_encryption_contexts)
            WITH ORDINALITY AS u (run_id, thread_id, assistant_id, metadata, strategy, kwargs, created_at, run_after, cron_id,
                                  thread_metadata, create_thread, skip_locked_thread, assistant_version, assistant_updated_at, encryption_context, ord)
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
              r.thread_metadata, r.create_thread, r.skip_locked_thread, r.assistant_version, r.assistant_updated_at, r.encryption_context) e;
          END IF;
        END LOOP;
      END $$`;

export class EnqueueRunsInSets1764500000000 implements MigrationInterface {
  name = "EnqueueRunsInSets1764500000000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(SIGNATURE + SET_BASED_BODY);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(SIGNATURE + PREVIOUS_BODY);
  }
}
