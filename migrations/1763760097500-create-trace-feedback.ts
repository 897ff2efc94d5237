import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * LangSmith feedback on trace runs (a score, value, comment or correction under a key, from a
 * source such as `api` or `model`). A feedback belongs to one run and goes with it (retention,
 * data reset); trace_id is the run's, copied so traces can be filtered by their feedback without
 * a join through every run. score is numeric: LangSmith keeps four decimals, and so does this.
 */
export class CreateTraceFeedback1763760097500 implements MigrationInterface {
  name = "CreateTraceFeedback1763760097500";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE trace_feedback (
        id uuid PRIMARY KEY,
        run_id uuid NOT NULL REFERENCES trace_runs (id) ON DELETE CASCADE,
        trace_id uuid,
        key text NOT NULL CHECK (length(key) BETWEEN 1 AND 200),
        score numeric,
        value jsonb,
        comment text,
        correction jsonb,
        source_type text NOT NULL DEFAULT 'api',
        source_metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL,
        modified_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX trace_feedback_run_idx ON trace_feedback (run_id, key, created_at)`);
    // Run and trace searches filter by key (and score): one probe per candidate run or trace.
    await queryRunner.query(`CREATE INDEX trace_feedback_trace_idx ON trace_feedback (trace_id, key, score)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE trace_feedback`);
  }
}
