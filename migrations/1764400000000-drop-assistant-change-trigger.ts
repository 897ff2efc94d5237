import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Assistant changes are no longer announced by a trigger: the assistants service announces them
 * after its commit, at most one NOTIFY per process every 50 ms (db/change-announcer.ts).
 *
 * Why: a transaction that has sent a NOTIFY takes PostgreSQL's global notify-queue lock at
 * commit and holds it through the commit's WAL flush, so every assistant write (one NOTIFY each,
 * from the trigger) committed one at a time. With the trigger disabled, PATCH /assistants at 16
 * clients went from 630-666 to 755-827 ops/s on a quiet 2-core machine; on a loaded one (other
 * work took 1-1.7 of the 2 cores) PostgreSQL's CPU per create fell 0.68x and per PATCH 0.76x.
 */
export class DropAssistantChangeTrigger1764400000000 implements MigrationInterface {
  name = "DropAssistantChangeTrigger1764400000000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER assistants_announce_change ON assistants`);
    await queryRunner.query(`DROP FUNCTION hangar_announce_assistant_change()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
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
}
