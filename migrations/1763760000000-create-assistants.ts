import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Assistants keep the fields of their active version in the assistants row, so reads and
 * searches touch one table; assistant_versions holds every version ever created.
 */
export class CreateAssistants1763760000000 implements MigrationInterface {
  name = "CreateAssistants1763760000000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE assistants (
        assistant_id uuid PRIMARY KEY,
        graph_id text NOT NULL,
        name text NOT NULL,
        description text,
        config jsonb NOT NULL DEFAULT '{}',
        context jsonb NOT NULL DEFAULT '{}',
        metadata jsonb NOT NULL DEFAULT '{}',
        version integer NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX assistants_graph_id_idx ON assistants (graph_id)`);
    await queryRunner.query(`CREATE INDEX assistants_metadata_idx ON assistants USING gin (metadata jsonb_path_ops)`);
    await queryRunner.query(`CREATE INDEX assistants_created_at_idx ON assistants (created_at, assistant_id)`);
    await queryRunner.query(`
      CREATE TABLE assistant_versions (
        assistant_id uuid NOT NULL REFERENCES assistants (assistant_id) ON DELETE CASCADE,
        version integer NOT NULL CHECK (version >= 1),
        graph_id text NOT NULL,
        name text NOT NULL,
        description text,
        config jsonb NOT NULL DEFAULT '{}',
        context jsonb NOT NULL DEFAULT '{}',
        metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL,
        PRIMARY KEY (assistant_id, version)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE assistant_versions`);
    await queryRunner.query(`DROP TABLE assistants`);
  }
}
