import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Assistant changes are announced (NOTIFY hangar_assistant_changed), so MCP sessions on every
 * process tell their clients the tool list changed, whichever process made the change. One NOTIFY
 * per statement: listeners re-read the list anyway (the payload carries nothing).
 */
export class AnnounceAssistantChanges1763760060000 implements MigrationInterface {
  name = "AnnounceAssistantChanges1763760060000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION hangar_announce_assistant_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('hangar_assistant_changed', '');
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER assistants_announce_change
      AFTER INSERT OR UPDATE OR DELETE ON assistants
      FOR EACH STATEMENT EXECUTE FUNCTION hangar_announce_assistant_change()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER assistants_announce_change ON assistants`);
    await queryRunner.query(`DROP FUNCTION hangar_announce_assistant_change()`);
  }
}
