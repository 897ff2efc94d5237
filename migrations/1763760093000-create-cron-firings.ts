import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * One row per cron firing: the run it queued (or none: a busy thread refused it), and how that run
 * went. A stateless cron's run is deleted with its thread after it ends, so the record keeps no
 * foreign key to runs and outlives both; it goes with its cron. The run's status is copied by
 * triggers on the runs of crons only (cron_id set), so other runs pay nothing: started_at when
 * it starts running, ended_at, status and error when it finishes; a run deleted before it
 * finished (its thread deleted, a rollback) ends the firing as `deleted`. A firing that queued a
 * run has the run's id as its own (firing_id = run_id), so the triggers find it by primary key
 * and firing adds one index less to maintain; a refused firing has an id of its own.
 */
export class CreateCronFirings1763760093000 implements MigrationInterface {
  name = "CreateCronFirings1763760093000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE cron_firings (
        firing_id uuid PRIMARY KEY,
        cron_id uuid NOT NULL REFERENCES crons (cron_id) ON DELETE CASCADE,
        run_id uuid,
        thread_id uuid,
        status text NOT NULL CHECK (status IN ('pending', 'running', 'success', 'error', 'timeout', 'interrupted', 'refused', 'deleted')),
        fired_at timestamptz NOT NULL,
        started_at timestamptz,
        ended_at timestamptz,
        error jsonb
      )`);
    await queryRunner.query(`CREATE INDEX cron_firings_cron_idx ON cron_firings (cron_id, fired_at DESC, firing_id DESC)`);
    await queryRunner.query(`
      CREATE FUNCTION hangar_cron_firing_follows_run() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          UPDATE cron_firings SET status = 'deleted', ended_at = now() WHERE firing_id = OLD.run_id;
          RETURN NULL;
        END IF;
        UPDATE cron_firings SET
          status = NEW.status,
          started_at = CASE WHEN NEW.status = 'running' THEN coalesce(started_at, now()) ELSE started_at END,
          ended_at = CASE WHEN NEW.status IN ('success', 'error', 'timeout', 'interrupted') THEN now() END,
          error = NEW.error
        WHERE firing_id = NEW.run_id;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER runs_cron_firing_status AFTER UPDATE OF status ON runs FOR EACH ROW
      WHEN (NEW.cron_id IS NOT NULL AND OLD.status IS DISTINCT FROM NEW.status)
      EXECUTE FUNCTION hangar_cron_firing_follows_run()`);
    await queryRunner.query(`
      CREATE TRIGGER runs_cron_firing_deleted AFTER DELETE ON runs FOR EACH ROW
      WHEN (OLD.cron_id IS NOT NULL AND OLD.status IN ('pending', 'running'))
      EXECUTE FUNCTION hangar_cron_firing_follows_run()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER runs_cron_firing_deleted ON runs`);
    await queryRunner.query(`DROP TRIGGER runs_cron_firing_status ON runs`);
    await queryRunner.query(`DROP FUNCTION hangar_cron_firing_follows_run()`);
    await queryRunner.query(`DROP TABLE cron_firings`);
  }
}
