import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The encryption context a row's JSON fields were encrypted with (langgraph.json `encryption`:
 * what the deployment's `context` handler derived from the caller), kept in clear beside them as
 * LangGraph's server does, so that decrypting after a restart or by another caller hands the
 * handlers the same context. NULL marks a row written without JSON encryption: it is read as it is.
 */
const TABLES = ["threads", "assistants", "assistant_versions", "store_items"] as const;

export class AddEncryptionContext1763760098800 implements MigrationInterface {
  name = "AddEncryptionContext1763760098800";

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN encryption_context jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN encryption_context`);
  }
}
