import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * LLM-call records ingested through the LangSmith-compatible API (and, later, Hangar's own graph
 * tracer). The wire fields are stored verbatim; the derived columns (rendered messages, usage,
 * costs, model, links to Hangar runs) are recomputed whenever a post or patch for the run arrives.
 */
export class CreateTraceRuns1763760010000 implements MigrationInterface {
  name = "CreateTraceRuns1763760010000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE trace_runs (
        id uuid PRIMARY KEY,
        trace_id uuid,
        parent_run_id uuid,
        -- Kept as sent: its segments carry the start times at microsecond precision plus the
        -- execution order, which orders siblings that started within the same microsecond.
        dotted_order text,
        name text,
        run_type text,
        status text,
        -- A patch that arrives before its post stores a provisional start (its end time or the
        -- receive time) so the column can stay NOT NULL; the post's start_time replaces it.
        start_time timestamptz NOT NULL,
        end_time timestamptz,
        inputs jsonb,
        outputs jsonb,
        extra jsonb,
        events jsonb,
        serialized jsonb,
        error text,
        tags text[] NOT NULL DEFAULT '{}',
        session_name text,
        session_id uuid,
        reference_example_id uuid,
        -- Multipart attachment parts: name -> {content_type, size_bytes}; the bytes are not kept.
        attachments jsonb,
        has_post boolean NOT NULL,
        has_patch boolean NOT NULL,
        rendered jsonb,
        warnings jsonb NOT NULL DEFAULT '[]',
        model_name text,
        provider text,
        prompt_tokens integer,
        completion_tokens integer,
        total_tokens integer,
        prompt_token_details jsonb,
        completion_token_details jsonb,
        -- Money is numeric (exact decimals); the _details maps hold decimal strings.
        prompt_cost numeric,
        completion_cost numeric,
        total_cost numeric,
        prompt_cost_details jsonb,
        completion_cost_details jsonb,
        cost_source text NOT NULL DEFAULT 'none' CHECK (cost_source IN ('explicit', 'price-table', 'none')),
        -- The model_prices row the costs came from. No foreign key on purpose: deleting or
        -- changing a price does not rewrite history; only repricing a time range does.
        price_id uuid,
        usage_source text NOT NULL DEFAULT 'none',
        tokens_estimated boolean NOT NULL DEFAULT false,
        first_token_time timestamptz,
        hangar_run_id uuid,
        thread_id uuid,
        assistant_id uuid,
        received_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    // Every list is ordered by (start_time, id) descending, so one index serves ranges and pages.
    await queryRunner.query(`CREATE INDEX trace_runs_start_time_idx ON trace_runs (start_time DESC, id DESC)`);
    // A trace read back as a tree is ordered by dotted_order.
    await queryRunner.query(`CREATE INDEX trace_runs_trace_id_idx ON trace_runs (trace_id, dotted_order)`);
    await queryRunner.query(`CREATE INDEX trace_runs_parent_run_id_idx ON trace_runs (parent_run_id)`);
    // Link and model columns are null for most non-LLM runs: partial indexes stay small.
    await queryRunner.query(
      `CREATE INDEX trace_runs_hangar_run_id_idx ON trace_runs (hangar_run_id) WHERE hangar_run_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX trace_runs_thread_id_idx ON trace_runs (thread_id, start_time) WHERE thread_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX trace_runs_assistant_id_idx ON trace_runs (assistant_id, start_time) WHERE assistant_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX trace_runs_model_name_idx ON trace_runs (model_name, start_time) WHERE model_name IS NOT NULL`,
    );
    // Run queries filter on metadata containment (@>); jsonb_path_ops is the smaller GIN opclass.
    await queryRunner.query(
      `CREATE INDEX trace_runs_metadata_idx ON trace_runs USING gin ((extra -> 'metadata') jsonb_path_ops)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE trace_runs`);
  }
}
