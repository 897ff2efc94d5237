import type { EntityManager } from "typeorm";
import { GroupCommit } from "./group-commit.js";
import { settleRunOutcomes, type RunOutcomeRecord, type SettledRun } from "./sql/settle-run-outcomes.js";

interface PendingOutcome {
  record: RunOutcomeRecord;
  /** Filled by the round that wrote it. */
  settled?: SettledRun;
}

/**
 * Settles finished runs through a group commit (db/group-commit.ts): the runs of one process that
 * end while a settle is in flight share the next statement and its commit. At 16 concurrent runs
 * a settle per run was one of the three statements each run still made on its own (with run
 * creation and join), each a round trip that wakes a PostgreSQL backend and a WAL flush.
 */
export class RunOutcomeWriter {
  private readonly rounds: GroupCommit<PendingOutcome>;

  constructor(manager: EntityManager) {
    this.rounds = new GroupCommit({
      write: async (batch) => {
        const settled = await settleRunOutcomes(
          manager,
          batch.map((pending) => pending.record),
        );
        batch.forEach((pending, index) => (pending.settled = settled[index]));
      },
      delayMs: 0,
      maxBatch: 200,
      // Every outcome is submitted (awaited by its worker), so failures reach it directly.
      onError: () => undefined,
    });
  }

  /** Resolves once the run's outcome is committed (or found not to be this worker's to record). */
  async settle(record: RunOutcomeRecord): Promise<SettledRun> {
    const pending: PendingOutcome = { record };
    await this.rounds.submit(pending);
    return pending.settled!;
  }
}
