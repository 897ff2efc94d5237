import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Price tiers by condition (select-tier.ts: more than N input tokens, a service tier), and where
 * a price comes from: the provider's page and the day it was read there.
 */
export class AddModelPriceTiers1763760098000 implements MigrationInterface {
  name = "AddModelPriceTiers1763760098000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE model_prices
        ADD COLUMN tiers jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(tiers) = 'array'),
        ADD COLUMN source_url text,
        ADD COLUMN as_of date`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE model_prices DROP COLUMN tiers, DROP COLUMN source_url, DROP COLUMN as_of`);
  }
}
