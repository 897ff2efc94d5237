import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Root runs by start time. The most-expensive-traces roll-up and the trace list both select the
 * roots of a time range; through trace_runs_start_time_idx they read every run of the range and
 * drop the children (a traced agent step has ~5–20 runs per root). Partial: roots only, so it is a
 * small fraction of the table's size.
 */
export class IndexTraceRootsByStartTime1763760099000 implements MigrationInterface {
  name = "IndexTraceRootsByStartTime1763760099000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX trace_runs_root_start_time_idx ON trace_runs (start_time DESC, id DESC) WHERE parent_run_id IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX trace_runs_root_start_time_idx`);
  }
}
