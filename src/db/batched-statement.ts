import { GroupCommit } from "./group-commit.js";

interface PendingCall<Input, Answer> {
  input: Input;
  /** Set by the statement that answered it; a retry of its round leaves it alone. */
  answered?: { answer: Answer };
}

export interface BatchedStatementOptions<Input> {
  /** A round takes at most this many calls. */
  maxBatch?: number;
  /**
   * Calls with the same key never share a statement: a round holding two is sent as two
   * statements, one after the other. For statements whose rows must be distinct, such as an
   * insert that answers "already existed" or an update that numbers a version.
   */
  distinctBy?: (input: Input) => string;
}

/**
 * A statement that takes many inputs and answers each, run through a group commit
 * (db/group-commit.ts): the calls made while a round is in flight share the next statement and
 * its commit. For the per-request statements of the run queue (enqueue, settle) and of the
 * assistants (create, update, read by id): at 16 concurrent requests each was a round trip of
 * its own that woke a PostgreSQL backend (about 0.3 ms of the server's CPU for the socket write
 * alone on a 2-core VM) and, for writes, flushed the WAL.
 *
 * A failed round is retried call by call, so one failing input fails only its own call; calls an
 * earlier statement of the round already answered are not run again.
 */
export class BatchedStatement<Input, Answer> {
  private readonly rounds: GroupCommit<PendingCall<Input, Answer>>;

  /** `run` answers its inputs in their order. */
  constructor(run: (inputs: Input[]) => Promise<Answer[]>, options: BatchedStatementOptions<Input> = {}) {
    const { maxBatch = 200, distinctBy } = options;
    this.rounds = new GroupCommit({
      write: async (calls) => {
        const unanswered = calls.filter((call) => !call.answered);
        for (const statement of distinctBy ? distinctStatements(unanswered, distinctBy) : [unanswered]) {
          const answers = await run(statement.map((call) => call.input));
          statement.forEach((call, index) => (call.answered = { answer: answers[index] as Answer }));
        }
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
    return call.answered!.answer;
  }
}

/** The calls split so no statement holds two with one key; the first of each key goes first. */
function distinctStatements<Call extends { input: Input }, Input>(calls: Call[], keyOf: (input: Input) => string): Call[][] {
  const statements: Call[][] = [];
  const statementsOfKey = new Map<string, number>();
  for (const call of calls) {
    const key = keyOf(call.input);
    const index = statementsOfKey.get(key) ?? 0;
    statementsOfKey.set(key, index + 1);
    (statements[index] ??= []).push(call);
  }
  return statements;
}
