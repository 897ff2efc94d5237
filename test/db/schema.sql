CREATE FUNCTION public.hangar_announce_cron_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
      BEGIN
        PERFORM pg_notify('hangar_cron_changed', '');
        RETURN NULL;
      END $$;

CREATE FUNCTION public.hangar_announce_run_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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
      END $$;

CREATE FUNCTION public.hangar_cancel_runs(p_run_ids uuid[], p_action text, p_now timestamp with time zone) RETURNS TABLE(cancelled_run_id uuid, cancelled_thread_id uuid, ended boolean)
    LANGUAGE plpgsql
    AS $$
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
      END $$;

CREATE FUNCTION public.hangar_cron_firing_follows_run() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          UPDATE cron_firings SET status = 'deleted', ended_at = now() WHERE firing_id = OLD.run_id;
          RETURN NULL;
        END IF;
        UPDATE cron_firings SET
          status = NEW.status,
          started_at = CASE WHEN NEW.status = 'running' THEN coalesce(started_at, now()) ELSE started_at END,
          ended_at = CASE WHEN NEW.status IN ('success', 'error', 'timeout', 'interrupted') THEN now() END,
          error = NEW.error
        WHERE firing_id = NEW.run_id;
        RETURN NULL;
      END $$;

CREATE FUNCTION public.hangar_enqueue_run(p_run_id uuid, p_thread_id uuid, p_assistant_id uuid, p_metadata jsonb, p_multitask_strategy text, p_kwargs jsonb, p_created_at timestamp with time zone, p_run_after timestamp with time zone, p_cron_id uuid, p_thread_metadata jsonb, p_create_thread boolean, p_skip_locked_thread boolean, p_assistant_version integer, p_assistant_updated_at timestamp with time zone, p_encryption_context jsonb) RETURNS TABLE(outcome text, ended_run_ids uuid[], signalled_run_ids uuid[])
    LANGUAGE plpgsql
    AS $$
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
          INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at, metadata, status, encryption_context)
          VALUES (p_thread_id, p_created_at, p_created_at, p_created_at, p_thread_metadata, 'busy', p_encryption_context)
          ON CONFLICT (thread_id) DO NOTHING;
          IF FOUND THEN
            INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, multitask_strategy, kwargs,
              created_at, updated_at, run_after, attempt, cron_id, encryption_context)
            VALUES (p_run_id, p_thread_id, p_assistant_id, 'pending', p_metadata, p_multitask_strategy, p_kwargs,
              p_created_at, p_created_at, p_run_after, 0, p_cron_id, p_encryption_context);
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
          created_at, updated_at, run_after, attempt, cron_id, encryption_context)
        VALUES (p_run_id, p_thread_id, p_assistant_id, 'pending', p_metadata, p_multitask_strategy, p_kwargs,
          p_created_at, p_created_at, p_run_after, 0, p_cron_id, p_encryption_context);
        UPDATE threads SET status = 'busy', metadata = metadata || p_thread_metadata, updated_at = p_created_at
        WHERE thread_id = p_thread_id;
        RETURN QUERY SELECT 'created'::text, v_ended, v_signalled;
      END $$;

CREATE FUNCTION public.hangar_enqueue_runs(p_run_ids uuid[], p_thread_ids uuid[], p_assistant_ids uuid[], p_metadata jsonb[], p_strategies text[], p_kwargs jsonb[], p_created_at timestamp with time zone[], p_run_after timestamp with time zone[], p_cron_ids uuid[], p_thread_metadata jsonb[], p_create_thread boolean[], p_skip_locked_thread boolean[], p_assistant_versions integer[], p_assistant_updated_at timestamp with time zone[], p_encryption_contexts jsonb[]) RETURNS TABLE(outcome text, ended_run_ids uuid[], signalled_run_ids uuid[])
    LANGUAGE plpgsql
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
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
      END $$;

CREATE FUNCTION public.hangar_settle_run(p_run_id uuid, p_worker_id text, p_status text, p_error jsonb, p_now timestamp with time zone, p_thread_id uuid, p_values jsonb, p_interrupts jsonb, p_thread_status text, p_thread_error jsonb) RETURNS TABLE(recorded boolean, thread_has_active_runs boolean)
    LANGUAGE plpgsql
    AS $$
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
      END $$;

CREATE TABLE public.assistant_versions (
    assistant_id uuid NOT NULL,
    version integer NOT NULL,
    graph_id text NOT NULL,
    name text NOT NULL,
    description text,
    config jsonb DEFAULT '{}'::jsonb NOT NULL,
    context jsonb DEFAULT '{}'::jsonb NOT NULL,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone NOT NULL,
    encryption_context jsonb,
    CONSTRAINT assistant_versions_version_check CHECK ((version >= 1))
);

CREATE TABLE public.assistants (
    assistant_id uuid NOT NULL,
    graph_id text NOT NULL,
    name text NOT NULL,
    description text,
    config jsonb DEFAULT '{}'::jsonb NOT NULL,
    context jsonb DEFAULT '{}'::jsonb NOT NULL,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    version integer NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    encryption_context jsonb,
    latest_version integer DEFAULT 1 NOT NULL
);

CREATE TABLE public.checkpoint_blobs (
    thread_id text NOT NULL,
    checkpoint_ns text DEFAULT ''::text NOT NULL,
    channel text NOT NULL,
    version text NOT NULL,
    type text NOT NULL,
    blob bytea
);

CREATE TABLE public.checkpoint_writes (
    thread_id text NOT NULL,
    checkpoint_ns text DEFAULT ''::text NOT NULL,
    checkpoint_id text NOT NULL,
    task_id text NOT NULL,
    idx integer NOT NULL,
    channel text NOT NULL,
    type text,
    blob bytea NOT NULL,
    task_path text DEFAULT ''::text NOT NULL
);

CREATE TABLE public.checkpoints (
    thread_id text NOT NULL,
    checkpoint_ns text DEFAULT ''::text NOT NULL,
    checkpoint_id text NOT NULL,
    parent_checkpoint_id text,
    type text,
    checkpoint jsonb NOT NULL,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL
);

CREATE TABLE public.cron_firings (
    firing_id uuid NOT NULL,
    cron_id uuid NOT NULL,
    run_id uuid,
    thread_id uuid,
    status text NOT NULL,
    fired_at timestamp with time zone NOT NULL,
    started_at timestamp with time zone,
    ended_at timestamp with time zone,
    error jsonb,
    CONSTRAINT cron_firings_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'running'::text, 'success'::text, 'error'::text, 'timeout'::text, 'interrupted'::text, 'refused'::text, 'deleted'::text])))
);

CREATE TABLE public.crons (
    cron_id uuid NOT NULL,
    assistant_id uuid NOT NULL,
    thread_id uuid,
    schedule text NOT NULL,
    timezone text DEFAULT 'UTC'::text NOT NULL,
    payload jsonb NOT NULL,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    end_time timestamp with time zone,
    enabled boolean DEFAULT true NOT NULL,
    on_run_completed text,
    next_run_date timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    encryption_context jsonb,
    CONSTRAINT crons_on_run_completed_check CHECK ((on_run_completed = ANY (ARRAY['delete'::text, 'keep'::text]))),
    CONSTRAINT crons_on_run_completed_stateless CHECK (((thread_id IS NULL) = (on_run_completed IS NOT NULL)))
);

CREATE TABLE public.hangar_migrations (
    id integer NOT NULL,
    "timestamp" bigint NOT NULL,
    name character varying NOT NULL
);

CREATE SEQUENCE public.hangar_migrations_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.hangar_migrations_id_seq OWNED BY public.hangar_migrations.id;

CREATE TABLE public.model_prices (
    id uuid NOT NULL,
    model_name text NOT NULL,
    match_pattern text NOT NULL,
    provider text,
    input_price numeric NOT NULL,
    output_price numeric NOT NULL,
    input_detail_prices jsonb DEFAULT '{}'::jsonb NOT NULL,
    output_detail_prices jsonb DEFAULT '{}'::jsonb NOT NULL,
    effective_from timestamp with time zone NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    tiers jsonb DEFAULT '[]'::jsonb NOT NULL,
    source_url text,
    as_of date,
    CONSTRAINT model_prices_input_price_check CHECK ((input_price >= (0)::numeric)),
    CONSTRAINT model_prices_output_price_check CHECK ((output_price >= (0)::numeric)),
    CONSTRAINT model_prices_tiers_check CHECK ((jsonb_typeof(tiers) = 'array'::text))
);

CREATE TABLE public.run_events (
    run_id uuid NOT NULL,
    seq integer NOT NULL,
    event text NOT NULL,
    data text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    stream_position bigint NOT NULL
);

ALTER TABLE public.run_events ALTER COLUMN stream_position ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.run_events_stream_position_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.runs (
    run_id uuid NOT NULL,
    thread_id uuid NOT NULL,
    assistant_id uuid NOT NULL,
    status text NOT NULL,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    multitask_strategy text NOT NULL,
    kwargs jsonb NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    run_after timestamp with time zone NOT NULL,
    attempt integer DEFAULT 0 NOT NULL,
    lease_owner text,
    lease_expires_at timestamp with time zone,
    cancel_action text,
    error jsonb,
    cron_id uuid,
    encryption_context jsonb,
    CONSTRAINT runs_cancel_action_check CHECK ((cancel_action = ANY (ARRAY['interrupt'::text, 'rollback'::text]))),
    CONSTRAINT runs_multitask_strategy_check CHECK ((multitask_strategy = ANY (ARRAY['reject'::text, 'interrupt'::text, 'rollback'::text, 'enqueue'::text]))),
    CONSTRAINT runs_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'running'::text, 'success'::text, 'error'::text, 'timeout'::text, 'interrupted'::text])))
);

CREATE TABLE public.server_secrets (
    purpose text NOT NULL,
    secret bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.store_items (
    namespace text[] NOT NULL,
    key text NOT NULL,
    value jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    ttl_minutes double precision,
    expires_at timestamp with time zone,
    encryption_context jsonb,
    CONSTRAINT store_items_namespace_check CHECK ((cardinality(namespace) > 0)),
    CONSTRAINT store_items_ttl_minutes_check CHECK ((ttl_minutes > (0)::double precision)),
    CONSTRAINT store_items_value_check CHECK ((jsonb_typeof(value) = 'object'::text))
);

CREATE TABLE public.store_vectors (
    namespace text[] NOT NULL,
    key text NOT NULL,
    field_path text NOT NULL,
    embedding real[] NOT NULL
);

CREATE TABLE public.threads (
    thread_id uuid NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    state_updated_at timestamp with time zone NOT NULL,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    config jsonb DEFAULT '{}'::jsonb NOT NULL,
    status text DEFAULT 'idle'::text NOT NULL,
    "values" jsonb,
    interrupts jsonb DEFAULT '{}'::jsonb NOT NULL,
    error jsonb,
    ttl_minutes double precision,
    encryption_context jsonb,
    CONSTRAINT threads_status_check CHECK ((status = ANY (ARRAY['idle'::text, 'busy'::text, 'interrupted'::text, 'error'::text]))),
    CONSTRAINT threads_ttl_minutes_check CHECK ((ttl_minutes > (0)::double precision))
);

CREATE TABLE public.trace_feedback (
    id uuid NOT NULL,
    run_id uuid NOT NULL,
    trace_id uuid,
    key text NOT NULL,
    score numeric,
    value jsonb,
    comment text,
    correction jsonb,
    source_type text DEFAULT 'api'::text NOT NULL,
    source_metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone NOT NULL,
    modified_at timestamp with time zone NOT NULL,
    CONSTRAINT trace_feedback_key_check CHECK (((length(key) >= 1) AND (length(key) <= 200)))
);

CREATE TABLE public.trace_runs (
    id uuid NOT NULL,
    trace_id uuid,
    parent_run_id uuid,
    dotted_order text,
    name text,
    run_type text,
    status text,
    start_time timestamp with time zone NOT NULL,
    end_time timestamp with time zone,
    inputs jsonb,
    outputs jsonb,
    extra jsonb,
    events jsonb,
    serialized jsonb,
    error text,
    tags text[] DEFAULT '{}'::text[] NOT NULL,
    session_name text,
    session_id uuid,
    reference_example_id uuid,
    attachments jsonb,
    has_post boolean NOT NULL,
    has_patch boolean NOT NULL,
    rendered jsonb,
    warnings jsonb DEFAULT '[]'::jsonb NOT NULL,
    model_name text,
    provider text,
    prompt_tokens integer,
    completion_tokens integer,
    total_tokens integer,
    prompt_token_details jsonb,
    completion_token_details jsonb,
    prompt_cost numeric,
    completion_cost numeric,
    total_cost numeric,
    prompt_cost_details jsonb,
    completion_cost_details jsonb,
    cost_source text DEFAULT 'none'::text NOT NULL,
    price_id uuid,
    usage_source text DEFAULT 'none'::text NOT NULL,
    tokens_estimated boolean DEFAULT false NOT NULL,
    first_token_time timestamp with time zone,
    hangar_run_id uuid,
    thread_id uuid,
    assistant_id uuid,
    received_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    service_tier text,
    price_tier text,
    CONSTRAINT trace_runs_cost_source_check CHECK ((cost_source = ANY (ARRAY['explicit'::text, 'price-table'::text, 'none'::text])))
);

CREATE TABLE public.webhook_deliveries (
    delivery_id uuid DEFAULT gen_random_uuid() NOT NULL,
    run_id uuid NOT NULL,
    url text NOT NULL,
    body text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    last_error text,
    gave_up_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.hangar_migrations ALTER COLUMN id SET DEFAULT nextval('public.hangar_migrations_id_seq'::regclass);

ALTER TABLE ONLY public.hangar_migrations
    ADD CONSTRAINT "PK_dd19d1e9553a72cad1c399fcf65" PRIMARY KEY (id);

ALTER TABLE ONLY public.assistant_versions
    ADD CONSTRAINT assistant_versions_pkey PRIMARY KEY (assistant_id, version);

ALTER TABLE ONLY public.assistants
    ADD CONSTRAINT assistants_pkey PRIMARY KEY (assistant_id);

ALTER TABLE ONLY public.checkpoint_blobs
    ADD CONSTRAINT checkpoint_blobs_pkey PRIMARY KEY (thread_id, checkpoint_ns, channel, version);

ALTER TABLE ONLY public.checkpoint_writes
    ADD CONSTRAINT checkpoint_writes_pkey PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx);

ALTER TABLE ONLY public.checkpoints
    ADD CONSTRAINT checkpoints_pkey PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id);

ALTER TABLE ONLY public.cron_firings
    ADD CONSTRAINT cron_firings_pkey PRIMARY KEY (firing_id);

ALTER TABLE ONLY public.crons
    ADD CONSTRAINT crons_pkey PRIMARY KEY (cron_id);

ALTER TABLE ONLY public.model_prices
    ADD CONSTRAINT model_prices_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.run_events
    ADD CONSTRAINT run_events_pkey PRIMARY KEY (run_id, seq);

ALTER TABLE ONLY public.runs
    ADD CONSTRAINT runs_pkey PRIMARY KEY (run_id);

ALTER TABLE ONLY public.server_secrets
    ADD CONSTRAINT server_secrets_pkey PRIMARY KEY (purpose);

ALTER TABLE ONLY public.store_items
    ADD CONSTRAINT store_items_pkey PRIMARY KEY (namespace, key);

ALTER TABLE ONLY public.store_vectors
    ADD CONSTRAINT store_vectors_pkey PRIMARY KEY (namespace, key, field_path);

ALTER TABLE ONLY public.threads
    ADD CONSTRAINT threads_pkey PRIMARY KEY (thread_id);

ALTER TABLE ONLY public.trace_feedback
    ADD CONSTRAINT trace_feedback_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.trace_runs
    ADD CONSTRAINT trace_runs_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (delivery_id);

CREATE INDEX assistants_created_at_idx ON public.assistants USING btree (created_at, assistant_id);

CREATE INDEX assistants_graph_id_idx ON public.assistants USING btree (graph_id);

CREATE INDEX assistants_metadata_idx ON public.assistants USING gin (metadata jsonb_path_ops) WITH (fastupdate=off);

CREATE INDEX cron_firings_cron_idx ON public.cron_firings USING btree (cron_id, fired_at DESC, firing_id DESC);

CREATE INDEX crons_assistant_idx ON public.crons USING btree (assistant_id, created_at);

CREATE INDEX crons_created_at_idx ON public.crons USING btree (created_at, cron_id);

CREATE INDEX crons_due_idx ON public.crons USING btree (next_run_date) WHERE (enabled AND (next_run_date IS NOT NULL));

CREATE INDEX crons_thread_idx ON public.crons USING btree (thread_id, created_at) WHERE (thread_id IS NOT NULL);

CREATE INDEX model_prices_effective_from_idx ON public.model_prices USING btree (effective_from);

CREATE INDEX run_events_created_at_idx ON public.run_events USING btree (created_at);

CREATE INDEX runs_assistant_idx ON public.runs USING btree (assistant_id);

CREATE INDEX runs_cron_idx ON public.runs USING btree (cron_id, created_at DESC) WHERE (cron_id IS NOT NULL);

CREATE UNIQUE INDEX runs_one_running_per_thread ON public.runs USING btree (thread_id) WHERE (status = 'running'::text);

CREATE INDEX runs_pending_claim_order_idx ON public.runs USING btree (created_at, run_id) WHERE (status = 'pending'::text);

CREATE INDEX runs_pending_idx ON public.runs USING btree (run_after, created_at) WHERE (status = 'pending'::text);

CREATE INDEX runs_running_lease_idx ON public.runs USING btree (lease_expires_at) WHERE (status = 'running'::text);

CREATE INDEX runs_thread_idx ON public.runs USING btree (thread_id, created_at DESC);

CREATE INDEX store_items_expires_idx ON public.store_items USING btree (expires_at) WHERE (expires_at IS NOT NULL);

CREATE INDEX store_items_value_idx ON public.store_items USING gin (value jsonb_path_ops);

CREATE INDEX threads_assistant_id_idx ON public.threads USING btree (((metadata ->> 'assistant_id'::text)));

CREATE INDEX threads_created_at_idx ON public.threads USING btree (created_at, thread_id);

CREATE INDEX threads_metadata_idx ON public.threads USING gin (metadata jsonb_path_ops);

CREATE INDEX threads_ttl_idx ON public.threads USING btree (updated_at) WHERE (ttl_minutes IS NOT NULL);

CREATE INDEX trace_feedback_run_idx ON public.trace_feedback USING btree (run_id, key, created_at);

CREATE INDEX trace_feedback_trace_idx ON public.trace_feedback USING btree (trace_id, key, score);

CREATE INDEX trace_runs_assistant_id_idx ON public.trace_runs USING btree (assistant_id, start_time) WHERE (assistant_id IS NOT NULL);

CREATE INDEX trace_runs_hangar_run_id_idx ON public.trace_runs USING btree (hangar_run_id) WHERE (hangar_run_id IS NOT NULL);

CREATE INDEX trace_runs_metadata_idx ON public.trace_runs USING gin (((extra -> 'metadata'::text)) jsonb_path_ops);

CREATE INDEX trace_runs_model_name_idx ON public.trace_runs USING btree (model_name, start_time) WHERE (model_name IS NOT NULL);

CREATE INDEX trace_runs_parent_run_id_idx ON public.trace_runs USING btree (parent_run_id);

CREATE INDEX trace_runs_root_start_time_idx ON public.trace_runs USING btree (start_time DESC, id DESC) WHERE (parent_run_id IS NULL);

CREATE INDEX trace_runs_start_time_idx ON public.trace_runs USING btree (start_time DESC, id DESC);

CREATE INDEX trace_runs_tags_idx ON public.trace_runs USING gin (tags);

CREATE INDEX trace_runs_thread_id_idx ON public.trace_runs USING btree (thread_id, start_time) WHERE (thread_id IS NOT NULL);

CREATE INDEX trace_runs_trace_id_idx ON public.trace_runs USING btree (trace_id, dotted_order);

CREATE INDEX webhook_deliveries_due_idx ON public.webhook_deliveries USING btree (next_attempt_at) WHERE (gave_up_at IS NULL);

CREATE TRIGGER crons_announce_change AFTER INSERT OR DELETE OR UPDATE OF schedule, timezone, enabled, end_time, next_run_date ON public.crons FOR EACH STATEMENT EXECUTE FUNCTION public.hangar_announce_cron_change();

CREATE TRIGGER runs_announce_change AFTER INSERT OR DELETE OR UPDATE ON public.runs FOR EACH ROW EXECUTE FUNCTION public.hangar_announce_run_change();

CREATE TRIGGER runs_cron_firing_deleted AFTER DELETE ON public.runs FOR EACH ROW WHEN (((old.cron_id IS NOT NULL) AND (old.status = ANY (ARRAY['pending'::text, 'running'::text])))) EXECUTE FUNCTION public.hangar_cron_firing_follows_run();

CREATE TRIGGER runs_cron_firing_status AFTER UPDATE OF status ON public.runs FOR EACH ROW WHEN (((new.cron_id IS NOT NULL) AND (old.status IS DISTINCT FROM new.status))) EXECUTE FUNCTION public.hangar_cron_firing_follows_run();

ALTER TABLE ONLY public.assistant_versions
    ADD CONSTRAINT assistant_versions_assistant_id_fkey FOREIGN KEY (assistant_id) REFERENCES public.assistants(assistant_id) ON DELETE CASCADE;

ALTER TABLE ONLY public.cron_firings
    ADD CONSTRAINT cron_firings_cron_id_fkey FOREIGN KEY (cron_id) REFERENCES public.crons(cron_id) ON DELETE CASCADE;

ALTER TABLE ONLY public.crons
    ADD CONSTRAINT crons_assistant_id_fkey FOREIGN KEY (assistant_id) REFERENCES public.assistants(assistant_id) ON DELETE CASCADE;

ALTER TABLE ONLY public.crons
    ADD CONSTRAINT crons_thread_id_fkey FOREIGN KEY (thread_id) REFERENCES public.threads(thread_id) ON DELETE CASCADE;

ALTER TABLE ONLY public.run_events
    ADD CONSTRAINT run_events_run_id_fkey FOREIGN KEY (run_id) REFERENCES public.runs(run_id) ON DELETE CASCADE;

ALTER TABLE ONLY public.runs
    ADD CONSTRAINT runs_cron_id_fkey FOREIGN KEY (cron_id) REFERENCES public.crons(cron_id) ON DELETE SET NULL;

ALTER TABLE ONLY public.runs
    ADD CONSTRAINT runs_thread_id_fkey FOREIGN KEY (thread_id) REFERENCES public.threads(thread_id) ON DELETE CASCADE;

ALTER TABLE ONLY public.store_vectors
    ADD CONSTRAINT store_vectors_namespace_key_fkey FOREIGN KEY (namespace, key) REFERENCES public.store_items(namespace, key) ON DELETE CASCADE;

ALTER TABLE ONLY public.trace_feedback
    ADD CONSTRAINT trace_feedback_run_id_fkey FOREIGN KEY (run_id) REFERENCES public.trace_runs(id) ON DELETE CASCADE;
