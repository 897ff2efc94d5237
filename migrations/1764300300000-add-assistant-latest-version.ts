import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The highest version an assistant has ever had, kept on its row. An update creates version
 * latest_version + 1 in one statement (db/sql/update-assistant.ts): read from the row the UPDATE
 * locks, it is current even when two updates race, where max(version) over assistant_versions in
 * the same statement would come from a snapshot taken before the lock wait. The active version
 * (`version`) is lower after a rollback to an earlier one (setActiveVersion).
 */
export class AddAssistantLatestVersion1764300300000 implements MigrationInterface {
  name = "AddAssistantLatestVersion1764300300000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE assistants ADD COLUMN latest_version integer NOT NULL DEFAULT 1`);
    await queryRunner.query(`
      UPDATE assistants a SET latest_version = greatest(a.version, v.max_version)
      FROM (SELECT assistant_id, max(version) AS max_version FROM assistant_versions GROUP BY assistant_id) v
      WHERE v.assistant_id = a.assistant_id`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE assistants DROP COLUMN latest_version`);
  }
}
