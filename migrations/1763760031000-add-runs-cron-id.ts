import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The cron whose firing queued a run (null for other runs), for Cron.runs and Cron.lastRun.
 * Deleting a cron keeps its runs: they are ordinary runs that lose the link.
 */
export class AddRunsCronId1763760031000 implements MigrationInterface {
  name = "AddRunsCronId1763760031000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE runs ADD COLUMN cron_id uuid REFERENCES crons (cron_id) ON DELETE SET NULL`);
    await queryRunner.query(`CREATE INDEX runs_cron_idx ON runs (cron_id, created_at DESC) WHERE cron_id IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE runs DROP COLUMN cron_id`);
  }
}
