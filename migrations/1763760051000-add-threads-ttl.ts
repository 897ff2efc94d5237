import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A thread's time-to-live (threads.create / update `ttl`, or langgraph.json
 * checkpointer.ttl.default_ttl): the thread expires `ttl_minutes` after its last update
 * (updated_at moves on every update and every run), and the sweeper deletes it with its
 * checkpoints and runs. Most threads have none, hence the partial index for the sweeper.
 */
export class AddThreadsTtl1763760051000 implements MigrationInterface {
  name = "AddThreadsTtl1763760051000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE threads ADD COLUMN ttl_minutes double precision CHECK (ttl_minutes > 0)`);
    await queryRunner.query(`CREATE INDEX threads_ttl_idx ON threads (updated_at) WHERE ttl_minutes IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE threads DROP COLUMN ttl_minutes`);
  }
}
