import { GroupCommit } from "./group-commit.js";

interface PendingCall<Input, Answer> {
  input: Input;
  /** Filled by the round that ran it. */
  answer?: Answer;
}

/**
 * A statement that takes many inputs and answers each, run through a group commit
 * (db/group-commit.ts): the calls made while a round is in flight share the next statement and
 * its commit. For the per-run statements of the run queue (enqueue, settle): at 16 concurrent
 * runs each was a round trip of its own that woke a PostgreSQL backend and flushed the WAL.
 *
 * A failed round is retried call by call, so one failing input fails only its own call.
 */
export class BatchedStatement<Input, Answer> {
  private readonly rounds: GroupCommit<PendingCall<Input, Answer>>;

  /** `run` answers its inputs in their order. */
  constructor(run: (inputs: Input[]) => Promise<Answer[]>, maxBatch = 200) {
    this.rounds = new GroupCommit({
      write: async (calls) => {
        const answers = await run(calls.map((call) => call.input));
        calls.forEach((call, index) => (call.answer = answers[index]));
      },
      delayMs: 0,
      maxBatch,
      // Every call is awaited by its caller, so failures reach it directly.
      onError: () => undefined,
    });
  }

  /** Resolves with this input's answer once its round has committed. */
  async call(input: Input): Promise<Answer> {
    const call: PendingCall<Input, Answer> = { input };
    await this.rounds.submit(call);
    return call.answer as Answer;
  }
}
