import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Trace searches by tag (`tags @> …` for all of them, `tags && …` for any): a GIN index on the
 * tags array answers both, where the start-time index alone would read every run in the window.
 * Built in the migration's transaction (not CONCURRENTLY): migrations run one transaction each.
 */
export class IndexTraceRunTags1763760099500 implements MigrationInterface {
  name = "IndexTraceRunTags1763760099500";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX trace_runs_tags_idx ON trace_runs USING gin (tags)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX trace_runs_tags_idx`);
  }
}
