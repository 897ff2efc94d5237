import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A thread's stream (GET /threads/{id}/stream) numbers its events across runs: the SSE id is the
 * event's `stream_position`, which grows in the order events are stored. A thread runs one run at a
 * time and a run's events are all stored before the run ends (run-attempt.ts), so on one thread
 * the next run's events always come later; within a run one process stores its events one round
 * at a time (db/group-commit.ts). Replay after a Last-Event-ID is then `position > id`.
 */
export class NumberRunEventsInThreadOrder1763760084000 implements MigrationInterface {
  name = "NumberRunEventsInThreadOrder1763760084000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE run_events ADD COLUMN stream_position bigint GENERATED ALWAYS AS IDENTITY`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE run_events DROP COLUMN stream_position`);
  }
}
