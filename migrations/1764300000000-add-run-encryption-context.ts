import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Runs and crons keep the encryption context their JSON fields were sealed with (langgraph.json
 * `encryption`: run metadata and kwargs, cron metadata and payload go through encrypt.json, as
 * LangGraph's server does), as threads and assistants do (migrations/…-add-encryption-context).
 * NULL marks a row written without JSON encryption: it is read as it is.
 *
 * The enqueue functions take that context (one per run) and store it with the run and with the
 * thread they create for it (stateless runs, if_not_exists create), so that thread's fields are
 * sealed with its creator's context like a thread created by POST /threads. Their metadata and
 * kwargs arrive sealed already: the service encrypts before the statement, so what is queued is
 * never in clear, even for a moment, and enqueueing stays one statement.
 *
 * Both versions of the functions are generated from one text (`withContext`) so that down()
 * restores exactly the previous ones (migrations/…-decide-multitask-on-enqueue).
 */
const TABLES = ["runs", "crons"] as const;

const OLD_SIGNATURES = {
  run: "hangar_enqueue_run(uuid, uuid, uuid, jsonb, text, jsonb, timestamptz, timestamptz, uuid, jsonb, boolean, boolean, integer, timestamptz)",
  runs: "hangar_enqueue_runs(uuid[], uuid[], uuid[], jsonb[], text[], jsonb[], timestamptz[], timestamptz[], uuid[], jsonb[], boolean[], boolean[], integer[], timestamptz[])",
};
const NEW_SIGNATURES = {
  run: OLD_SIGNATURES.run.replace(/\)$/, ", jsonb)"),
  runs: OLD_SIGNATURES.runs.replace(/\)$/, ", jsonb[])"),
};

function enqueueRunFunction(withContext: boolean): string {
  const c = (text: string) => (withContext ? text : "");
  return `
      CREATE FUNCTION hangar_enqueue_run(
        p_run_id uuid, p_thread_id uuid, p_assistant_id uuid, p_metadata jsonb, p_multitask_strategy text,
        p_kwargs jsonb, p_created_at timestamptz, p_run_after timestamptz, p_cron_id uuid,
        p_thread_metadata jsonb, p_create_thread boolean, p_skip_locked_thread boolean,
        p_assistant_version integer, p_assistant_updated_at timestamptz${c(", p_encryption_context jsonb")}
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
          INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at, metadata, status${c(", encryption_context")})
          VALUES (p_thread_id, p_created_at, p_created_at, p_created_at, p_thread_metadata, 'busy'${c(", p_encryption_context")})
          ON CONFLICT (thread_id) DO NOTHING;
          IF FOUND THEN
            INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, multitask_strategy, kwargs,
              created_at, updated_at, run_after, attempt, cron_id${c(", encryption_context")})
            VALUES (p_run_id, p_thread_id, p_assistant_id, 'pending', p_metadata, p_multitask_strategy, p_kwargs,
              p_created_at, p_created_at, p_run_after, 0, p_cron_id${c(", p_encryption_context")});
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
          created_at, updated_at, run_after, attempt, cron_id${c(", encryption_context")})
        VALUES (p_run_id, p_thread_id, p_assistant_id, 'pending', p_metadata, p_multitask_strategy, p_kwargs,
          p_created_at, p_created_at, p_run_after, 0, p_cron_id${c(", p_encryption_context")});
        UPDATE threads SET status = 'busy', metadata = metadata || p_thread_metadata, updated_at = p_created_at
        WHERE thread_id = p_thread_id;
        RETURN QUERY SELECT 'created'::text, v_ended, v_signalled;
      END $$`;
}

function enqueueRunsFunction(withContext: boolean): string {
  const c = (text: string) => (withContext ? text : "");
  return `
      CREATE FUNCTION hangar_enqueue_runs(
        p_run_ids uuid[], p_thread_ids uuid[], p_assistant_ids uuid[], p_metadata jsonb[], p_strategies text[],
        p_kwargs jsonb[], p_created_at timestamptz[], p_run_after timestamptz[], p_cron_ids uuid[],
        p_thread_metadata jsonb[], p_create_thread boolean[], p_skip_locked_thread boolean[],
        p_assistant_versions integer[], p_assistant_updated_at timestamptz[]${c(", p_encryption_contexts jsonb[]")}
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
          SELECT DISTINCT ON (u.thread_id) u.thread_id, u.created_at, u.thread_metadata, ${c("u.encryption_context, ")}u.ord
          FROM unnest(p_thread_ids, p_create_thread, p_assistant_updated_at, p_created_at, p_thread_metadata${c(", p_encryption_contexts")})
            WITH ORDINALITY AS u (thread_id, create_thread, assistant_updated_at, created_at, thread_metadata, ${c("encryption_context, ")}ord)
          WHERE u.create_thread AND u.assistant_updated_at IS NULL
          ORDER BY u.thread_id, u.ord
        ), inserted AS (
          INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at, metadata, status${c(", encryption_context")})
          SELECT c.thread_id, c.created_at, c.created_at, c.created_at, c.thread_metadata, 'busy'${c(", c.encryption_context")} FROM candidates c
          ORDER BY c.thread_id
          ON CONFLICT (thread_id) DO NOTHING
          RETURNING thread_id
        )
        SELECT coalesce(array_agg(c.ord), ARRAY[]::bigint[]) INTO v_new_ords
        FROM candidates c JOIN inserted i ON i.thread_id = c.thread_id;
        IF cardinality(v_new_ords) > 0 THEN
          INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, multitask_strategy, kwargs,
            created_at, updated_at, run_after, attempt, cron_id${c(", encryption_context")})
          SELECT u.run_id, u.thread_id, u.assistant_id, 'pending', u.metadata, u.strategy, u.kwargs,
            u.created_at, u.created_at, u.run_after, 0, u.cron_id${c(", u.encryption_context")}
          FROM unnest(p_run_ids, p_thread_ids, p_assistant_ids, p_metadata, p_strategies, p_kwargs, p_created_at,
                      p_run_after, p_cron_ids${c(", p_encryption_contexts")})
            WITH ORDINALITY AS u (run_id, thread_id, assistant_id, metadata, strategy, kwargs, created_at, run_after, cron_id, ${c("encryption_context, ")}ord)
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
            created_at, updated_at, run_after, attempt, cron_id${c(", encryption_context")})
          SELECT u.run_id, u.thread_id, u.assistant_id, 'pending', u.metadata, u.strategy, u.kwargs,
            u.created_at, u.created_at, u.run_after, 0, u.cron_id${c(", u.encryption_context")}
          FROM unnest(p_run_ids, p_thread_ids, p_assistant_ids, p_metadata, p_strategies, p_kwargs, p_created_at,
                      p_run_after, p_cron_ids${c(", p_encryption_contexts")})
            WITH ORDINALITY AS u (run_id, thread_id, assistant_id, metadata, strategy, kwargs, created_at, run_after, cron_id, ${c("encryption_context, ")}ord)
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
                               p_assistant_versions, p_assistant_updated_at${c(", p_encryption_contexts")})
            WITH ORDINALITY AS u (run_id, thread_id, assistant_id, metadata, strategy, kwargs, created_at, run_after, cron_id,
                                  thread_metadata, create_thread, skip_locked_thread, assistant_version, assistant_updated_at, ${c("encryption_context, ")}ord)
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
              r.thread_metadata, r.create_thread, r.skip_locked_thread, r.assistant_version, r.assistant_updated_at${c(", r.encryption_context")}) e;
          END IF;
        END LOOP;
      END $$`;
}

export class AddRunEncryptionContext1764300000000 implements MigrationInterface {
  name = "AddRunEncryptionContext1764300000000";

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN encryption_context jsonb`);
    await queryRunner.query(`DROP FUNCTION ${OLD_SIGNATURES.runs}`);
    await queryRunner.query(`DROP FUNCTION ${OLD_SIGNATURES.run}`);
    await queryRunner.query(enqueueRunFunction(true));
    await queryRunner.query(enqueueRunsFunction(true));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION ${NEW_SIGNATURES.runs}`);
    await queryRunner.query(`DROP FUNCTION ${NEW_SIGNATURES.run}`);
    await queryRunner.query(enqueueRunFunction(false));
    await queryRunner.query(enqueueRunsFunction(false));
    for (const table of TABLES) await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN encryption_context`);
  }
}
