import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The checkpoint tables become Hangar's: its own checkpointer (db/checkpointer.ts, LangGraph's
 * public BaseCheckpointSaver contract) reads and writes them, and this migration, not a library's
 * setup(), creates them.
 *
 * Earlier versions had @langchain/langgraph-checkpoint-postgres create them (tracked in its own
 * `checkpoint_migrations` table). They are adopted as they are, with their rows: the shape here is
 * the one that package's migrations ended at, so `IF NOT EXISTS` leaves an existing table and its
 * threads' history untouched, and a fresh database gets the same tables. Then:
 *
 * - `checkpoint_blobs.blob` is nullable (a channel emptied in a step is stored as type "empty");
 *   repeated here for a database set up by an older release of that package.
 * - `checkpoint_writes.task_path` is new: LangGraph passes each task's path to putWrites and
 *   expects pending writes back in (task_path, task_id, idx) order; rows written before have ''
 *   and so sort first by task id, as they did.
 * - `checkpoint_migrations` goes: nothing reads it any more.
 */
export class AdoptCheckpointTables1763760070000 implements MigrationInterface {
  name = "AdoptCheckpointTables1763760070000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS checkpoints (
        thread_id text NOT NULL,
        checkpoint_ns text NOT NULL DEFAULT '',
        checkpoint_id text NOT NULL,
        parent_checkpoint_id text,
        type text,
        checkpoint jsonb NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}',
        PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
      )`);
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS checkpoint_blobs (
        thread_id text NOT NULL,
        checkpoint_ns text NOT NULL DEFAULT '',
        channel text NOT NULL,
        version text NOT NULL,
        type text NOT NULL,
        blob bytea,
        PRIMARY KEY (thread_id, checkpoint_ns, channel, version)
      )`);
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS checkpoint_writes (
        thread_id text NOT NULL,
        checkpoint_ns text NOT NULL DEFAULT '',
        checkpoint_id text NOT NULL,
        task_id text NOT NULL,
        idx integer NOT NULL,
        channel text NOT NULL,
        type text,
        blob bytea NOT NULL,
        PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
      )`);
    await queryRunner.query(`ALTER TABLE checkpoint_blobs ALTER COLUMN blob DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE checkpoint_writes ADD COLUMN IF NOT EXISTS task_path text NOT NULL DEFAULT ''`);
    await queryRunner.query(`DROP TABLE IF EXISTS checkpoint_migrations`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The tables keep the threads' history: going back leaves them to the package's setup().
    await queryRunner.query(`ALTER TABLE checkpoint_writes DROP COLUMN task_path`);
  }
}
