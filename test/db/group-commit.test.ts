import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import pg from "pg";
import { emptyCheckpoint, uuid6, type Checkpoint } from "@langchain/langgraph-checkpoint";
import { RunStampingCheckpointer } from "../../src/db/checkpointer.js";
import { GroupCommit } from "../../src/db/group-commit.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { CONDITION_TIMEOUT_MS } from "../helpers/condition-timeout.js";
import { endPool } from "../helpers/test-pool.js";

/** A GroupCommit over a recording writer; `failWhen` makes a write throw when an item matches. */
function recordingCommit(failWhen: (item: string) => boolean = () => false) {
  const rounds: string[][] = [];
  const onError = vi.fn();
  const commit = new GroupCommit<string>({
    write: async (batch) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (batch.some(failWhen)) throw new Error(`bad item in ${batch.join(",")}`);
      rounds.push([...batch]);
    },
    delayMs: 20,
    maxBatch: 100,
    onError,
  });
  return { commit, rounds, onError };
}

describe("GroupCommit", () => {
  it("writes items submitted in the same turn in one round, and those arriving meanwhile in the next", async () => {
    const { commit, rounds } = recordingCommit();
    const first = [commit.submit("a"), commit.submit("b"), commit.submit("c")];
    await new Promise((resolve) => setImmediate(resolve)); // the first round is now in flight
    const second = [commit.submit("d"), commit.submit("e")];
    await Promise.all([...first, ...second]);
    expect(rounds).toEqual([["a", "b", "c"], ["d", "e"]]);
  });

  it("fails only the item that spoiled a round; its round-mates are written", async () => {
    const { commit, rounds } = recordingCommit((item) => item === "bad");
    const results = await Promise.allSettled([commit.submit("a"), commit.submit("bad"), commit.submit("c")]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(rounds).toEqual([["a"], ["c"]]);
  });

  it("writes added items after the delay, or at once on flush; failures of added items go to onError", async () => {
    const { commit, rounds, onError } = recordingCommit((item) => item === "bad");
    commit.add("x");
    expect(commit.uncommitted).toEqual(["x"]);
    await vi.waitFor(() => expect(rounds).toEqual([["x"]]), { timeout: CONDITION_TIMEOUT_MS });

    commit.add("y");
    commit.add("bad");
    const flushed = commit.flush();
    await flushed;
    expect(rounds).toEqual([["x"], ["y"]]);
    expect(onError).toHaveBeenCalledOnce();
    expect(commit.uncommitted).toEqual([]);
    await expect(commit.flush()).resolves.toBeUndefined();
  });
});

describe("GroupCommit with a round slower than its delay", () => {
  it("still writes items added while a round was in flight, and items added after it, with no flush", async () => {
    const rounds: string[][] = [];
    let firstRoundStarted = false;
    let releaseRound: () => void = () => undefined;
    const commit = new GroupCommit<string>({
      write: async (batch) => {
        // The first round is held until the test releases it: longer than the 20 ms delay.
        if (rounds.length === 0) {
          firstRoundStarted = true;
          await new Promise<void>((resolve) => (releaseRound = resolve));
        }
        rounds.push([...batch]);
      },
      delayMs: 20,
      maxBatch: 100,
      onError: () => undefined,
    });
    commit.add("a");
    await vi.waitFor(() => expect(firstRoundStarted).toBe(true), { timeout: CONDITION_TIMEOUT_MS });
    commit.add("b");
    // b's 20 ms timer fires while the first round is still in flight.
    await new Promise((resolve) => setTimeout(resolve, 60));
    releaseRound();
    await vi.waitFor(() => expect(rounds).toEqual([["a"], ["b"]]), { timeout: CONDITION_TIMEOUT_MS });
    commit.add("c");
    await vi.waitFor(() => expect(rounds).toEqual([["a"], ["b"], ["c"]]), { timeout: CONDITION_TIMEOUT_MS });
  });
});

describe("RunStampingCheckpointer on the group commit", () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  const roundTrips = { count: 0 };

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 4 });
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    (pool as unknown as { query: unknown }).query = (...args: unknown[]) => {
      roundTrips.count += 1;
      return query(...args);
    };
  });
  afterAll(async () => {
    await endPool(pool);
    await database.retire();
  });

  const checkpointWith = (values: Record<string, unknown>): Checkpoint => {
    const checkpoint = emptyCheckpoint();
    checkpoint.id = uuid6(-1);
    checkpoint.channel_values = values;
    checkpoint.channel_versions = Object.fromEntries(Object.keys(values).map((channel) => [channel, `${checkpoint.id}.${channel}`]));
    return checkpoint;
  };

  it("writes the checkpoints and writes of concurrent runs in shared statements, readable back through the checkpointer", async () => {
    const saver = new RunStampingCheckpointer(pool);
    const threads = Array.from({ length: 12 }, (_, i) => `group-commit-${i}`);
    const checkpoints = threads.map((thread) => checkpointWith({ messages: [`hello ${thread}`], step: 1 }));
    roundTrips.count = 0;
    const configs = await Promise.all(
      threads.map((thread, i) =>
        saver.put(
          { configurable: { thread_id: thread, checkpoint_ns: "" }, metadata: { run_id: `run-${i}` } },
          checkpoints[i]!,
          { source: "loop", step: 1, parents: {} },
          checkpoints[i]!.channel_versions,
        ),
      ),
    );
    await Promise.all(configs.map((config, i) => saver.putWrites(config, [["messages", `pending ${i}`]], "task-1")));
    // 12 puts then 12 putWrites: one round each (a round is one statement).
    expect(roundTrips.count).toBe(2);

    for (const [i, thread] of threads.entries()) {
      const tuple = await saver.getTuple({ configurable: { thread_id: thread, checkpoint_ns: "" } });
      expect(tuple?.checkpoint.id).toBe(checkpoints[i]!.id);
      expect(tuple?.checkpoint.channel_values).toEqual({ messages: [`hello ${thread}`], step: 1 });
      expect(tuple?.metadata).toMatchObject({ source: "loop", step: 1, run_id: `run-${i}` });
      expect(tuple?.pendingWrites).toEqual([["task-1", "messages", `pending ${i}`]]);
    }
  });

  it("keeps sequential writes' conflict rules inside one round: plain writes keep the first, special ones replace", async () => {
    const saver = new RunStampingCheckpointer(pool);
    const thread = "group-commit-conflicts";
    const checkpoint = checkpointWith({ step: 1 });
    const config = await saver.put(
      { configurable: { thread_id: thread, checkpoint_ns: "" } },
      checkpoint,
      { source: "loop", step: 1, parents: {} },
      checkpoint.channel_versions,
    );
    await Promise.all([
      saver.putWrites(config, [["messages", "first"]], "task-1"),
      saver.putWrites(config, [["messages", "second"]], "task-1"),
      saver.putWrites(config, [["__error__", "first error"]], "task-2"),
      saver.putWrites(config, [["__error__", "last error"]], "task-2"),
    ]);
    const tuple = await saver.getTuple({ configurable: { thread_id: thread, checkpoint_ns: "" } });
    expect(tuple?.pendingWrites).toEqual(
      expect.arrayContaining([
        ["task-1", "messages", "first"],
        ["task-2", "__error__", "last error"],
      ]),
    );
    expect(tuple?.pendingWrites).toHaveLength(2);
  });
});
