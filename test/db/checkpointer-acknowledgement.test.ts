import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import pg from "pg";
import { RunStampingCheckpointer } from "../../src/db/checkpointer.js";
import { checkpointerGraphs, runConfig } from "../helpers/checkpointer-graphs.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { endPool } from "../helpers/test-pool.js";

let database: TestDatabase;
let pool: pg.Pool;
/** Checkpoint-batch statements sent, and a thread whose writes the "database" refuses while set. */
let checkpointStatements = 0;
let refusedThread: string | null = null;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url, max: 4 });
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: unknown }).query = (...args: unknown[]) => {
    const statement = args[0] as { text?: string; values?: unknown[] };
    if (typeof statement === "object" && statement.text?.includes("INSERT INTO checkpoints")) {
      checkpointStatements += 1;
      // A write failing in the database (the outside world here): once, for one thread.
      const text = JSON.stringify(statement.values);
      if (refusedThread && text.includes(refusedThread)) {
        // A round of several writes fails whole; the write then fails again alone, and after that
        // the database is fine again. (Statement parameters: $10 task ids, $19 checkpoint ids.)
        const values = statement.values as string[][];
        if (values[18]!.length + new Set(values[9]).size === 1) refusedThread = null;
        return Promise.reject(new Error("connection lost while writing a checkpoint"));
      }
    }
    return query(...args);
  };
});
afterAll(async () => {
  await endPool(pool);
  await database.retire();
});
beforeEach(() => {
  checkpointStatements = 0;
  refusedThread = null;
});

// Four checkpoints per run (input, __start__, first, second), each put chained behind the previous one.
const fourPuts = (saver: RunStampingCheckpointer) => checkpointerGraphs(saver).twoSteps;

async function storedCheckpoints(threadId: string): Promise<number> {
  const { rows } = await pool.query<{ count: number }>("SELECT count(*)::int AS count FROM checkpoints WHERE thread_id = $1", [threadId]);
  return rows[0]!.count;
}

describe("checkpoint writes acknowledged when queued", () => {
  it("writes a run's chained checkpoints in fewer rounds than when each put waits for its commit", async () => {
    const saver = new RunStampingCheckpointer(pool);
    const graph = fourPuts(saver);

    await graph.invoke({ steps: ["input"] }, runConfig("committed-each", "run-1"));
    await saver.writesCommitted("run-1");
    const roundsWhenCommitted = checkpointStatements;

    checkpointStatements = 0;
    saver.acknowledgeWhenQueued("run-2");
    await graph.invoke({ steps: ["input"] }, runConfig("queued", "run-2"));
    await saver.writesCommitted("run-2");
    const roundsWhenQueued = checkpointStatements;

    expect(roundsWhenCommitted).toBeGreaterThanOrEqual(4);
    expect(roundsWhenQueued).toBeLessThan(roundsWhenCommitted);
    expect(roundsWhenQueued).toBeLessThanOrEqual(2);
    // Everything is in the database all the same, and reads back the same.
    expect(await storedCheckpoints("queued")).toBe(await storedCheckpoints("committed-each"));
    const state = await graph.getState({ configurable: { thread_id: "queued" } });
    expect(state.values.steps).toEqual(["input", "first", "second"]);
    const history = [];
    for await (const snapshot of graph.getStateHistory({ configurable: { thread_id: "queued" } })) history.push(snapshot);
    expect(history).toHaveLength(4);
  });

  it("reports a failed write before the run can succeed, writes nothing of the run after it, and spares the runs sharing its round", async () => {
    const saver = new RunStampingCheckpointer(pool);
    const graph = fourPuts(saver);
    saver.acknowledgeWhenQueued("run-bad");
    saver.acknowledgeWhenQueued("run-good");
    refusedThread = "thread-bad";

    const [bad, good] = await Promise.allSettled([
      graph.invoke({ steps: ["input"] }, runConfig("thread-bad", "run-bad")),
      graph.invoke({ steps: ["input"] }, runConfig("thread-good", "run-good")),
    ]);
    expect(good.status).toBe("fulfilled");
    await expect(saver.writesCommitted("run-good")).resolves.toBeUndefined();
    expect(await storedCheckpoints("thread-good")).toBe(4);

    // The graph itself may or may not have heard of it (LangGraph learns it from a later put);
    // writesCommitted always reports it, which is what a run checks before it succeeds.
    if (bad.status === "rejected") expect(String(bad.reason)).toMatch(/connection lost/);
    await expect(saver.writesCommitted("run-bad")).rejects.toThrow(/connection lost/);
    // The database took writes again right after the failure, but the run's later checkpoints were
    // never sent: they would have pointed at channel values that are not there.
    expect(refusedThread).toBeNull();
    expect(await storedCheckpoints("thread-bad")).toBe(0);
    await expect(saver.put(runConfigWithMetadata("thread-bad", "run-bad"), emptyCheckpoint(), { source: "update", step: 9, parents: {} }, {})).rejects.toThrow(
      /connection lost/,
    );

    // Settled and forgotten: the run id carries nothing over.
    saver.forgetRun("run-bad");
    await expect(saver.writesCommitted("run-bad")).resolves.toBeUndefined();
  });
});

function runConfigWithMetadata(threadId: string, runId: string) {
  return { configurable: { thread_id: threadId, checkpoint_ns: "", run_id: runId }, metadata: { run_id: runId } };
}

function emptyCheckpoint() {
  return { v: 4, id: "1f000000-0000-6000-8000-000000000000", ts: new Date().toISOString(), channel_values: {}, channel_versions: {}, versions_seen: {} };
}
