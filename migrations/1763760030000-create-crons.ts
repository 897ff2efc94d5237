import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Cron jobs. The scheduler finds due ones through crons_due_idx and claims them with
 * FOR UPDATE SKIP LOCKED, then moves next_run_date forward in the same transaction that queues
 * the firing's run, so each slot fires exactly once however many processes schedule.
 * A cron goes with its assistant or its thread (ON DELETE CASCADE).
 */
export class CreateCrons1763760030000 implements MigrationInterface {
  name = "CreateCrons1763760030000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE crons (
        cron_id uuid PRIMARY KEY,
        assistant_id uuid NOT NULL REFERENCES assistants (assistant_id) ON DELETE CASCADE,
        thread_id uuid REFERENCES threads (thread_id) ON DELETE CASCADE,
        schedule text NOT NULL,
        timezone text NOT NULL DEFAULT 'UTC',
        payload jsonb NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}',
        end_time timestamptz,
        enabled boolean NOT NULL DEFAULT true,
        on_run_completed text CHECK (on_run_completed IN ('delete', 'keep')),
        next_run_date timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        -- Only a stateless cron has a thread per firing to keep or delete.
        CONSTRAINT crons_on_run_completed_stateless CHECK ((thread_id IS NULL) = (on_run_completed IS NOT NULL))
      )`);
    await queryRunner.query(`CREATE INDEX crons_due_idx ON crons (next_run_date) WHERE enabled AND next_run_date IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX crons_assistant_idx ON crons (assistant_id, created_at)`);
    await queryRunner.query(`CREATE INDEX crons_thread_idx ON crons (thread_id, created_at) WHERE thread_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX crons_created_at_idx ON crons (created_at, cron_id)`);

    // Schedulers in every process re-plan their wake-up when crons change. One NOTIFY per
    // statement, not per row: a batch that moves 10,000 crons forward is one wake-up, and every
    // listener re-reads the earliest due time anyway (the payload carries nothing).
    await queryRunner.query(`
      CREATE FUNCTION hangar_announce_cron_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('hangar_cron_changed', '');
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER crons_announce_change
      AFTER INSERT OR DELETE OR UPDATE OF schedule, timezone, enabled, end_time, next_run_date ON crons
      FOR EACH STATEMENT EXECUTE FUNCTION hangar_announce_cron_change()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE crons`);
    await queryRunner.query(`DROP FUNCTION hangar_announce_cron_change()`);
  }
}
