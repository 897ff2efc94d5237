import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Secrets the server keeps for itself, one per purpose (db/sql/server-secret.ts): created on first
 * use by whichever process comes first, then shared by every process on the database and kept
 * across restarts, so a deployment is safe without configuring one. First use: the key A2A
 * context ids are derived with (domain/ids.ts threadIdForContext).
 */
export class CreateServerSecrets1763760091000 implements MigrationInterface {
  name = "CreateServerSecrets1763760091000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE server_secrets (
        purpose text PRIMARY KEY,
        secret bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE server_secrets`);
  }
}
