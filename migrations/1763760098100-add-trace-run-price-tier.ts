import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A run's service tier (so re-pricing can choose a tier without re-reading the run's outputs) and
 * the price tier that priced it (the cost breakdown names it). Null on runs stored before.
 */
export class AddTraceRunPriceTier1763760098100 implements MigrationInterface {
  name = "AddTraceRunPriceTier1763760098100";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE trace_runs ADD COLUMN service_tier text, ADD COLUMN price_tier text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE trace_runs DROP COLUMN service_tier, DROP COLUMN price_tier`);
  }
}
