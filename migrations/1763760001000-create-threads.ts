import type { MigrationInterface, QueryRunner } from "typeorm";

/** Threads; their graph state lives in the LangGraph checkpoint tables keyed by thread_id. */
export class CreateThreads1763760001000 implements MigrationInterface {
  name = "CreateThreads1763760001000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE threads (
        thread_id uuid PRIMARY KEY,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        state_updated_at timestamptz NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}',
        config jsonb NOT NULL DEFAULT '{}',
        status text NOT NULL DEFAULT 'idle' CHECK (status IN ('idle', 'busy', 'interrupted', 'error')),
        "values" jsonb,
        interrupts jsonb NOT NULL DEFAULT '{}',
        error jsonb
      )`);
    await queryRunner.query(`CREATE INDEX threads_metadata_idx ON threads USING gin (metadata jsonb_path_ops)`);
    await queryRunner.query(`CREATE INDEX threads_created_at_idx ON threads (created_at, thread_id)`);
    // delete_threads on assistant deletion finds a thread's assistant through its metadata.
    await queryRunner.query(`CREATE INDEX threads_assistant_id_idx ON threads ((metadata ->> 'assistant_id'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE threads`);
  }
}
