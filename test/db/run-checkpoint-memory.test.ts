import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { RunStampingCheckpointer } from "../../src/db/checkpointer.js";
import { checkpointerGraphs as graphs, runConfig } from "../helpers/checkpointer-graphs.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { endPool } from "../helpers/test-pool.js";

let database: TestDatabase;
let pool: pg.Pool;
const reads: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url, max: 4 });
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: unknown }).query = (...args: unknown[]) => {
    const text = typeof args[0] === "string" ? args[0] : (args[0] as { text: string }).text;
    if (/^\s*select/i.test(text)) reads.push(text);
    return query(...args);
  };
});
afterAll(async () => {
  await endPool(pool);
  await database.retire();
});


describe("the checkpoints a run committed, answered from memory", () => {
  it("skips the opening read on an empty thread and reads the state after the run without the database", async () => {
    const saver = new RunStampingCheckpointer(pool);
    const { twoSteps } = graphs(saver);
    saver.expectEmptyThread("run-1", "thread-1");
    reads.length = 0;
    await twoSteps.invoke({ steps: ["input"] }, runConfig("thread-1", "run-1"));
    await saver.writesSettled("run-1");
    const fromMemory = await twoSteps.getState(saver.readAfterRunConfig("thread-1", "run-1"));
    expect(reads).toEqual([]);

    const fromDatabase = await twoSteps.getState({ configurable: { thread_id: "thread-1" } });
    expect(reads).toHaveLength(1);
    expect(fromMemory.values).toEqual({ steps: ["input", "first", "second"], answer: null });
    expect(fromMemory.values).toEqual(fromDatabase.values);
    expect(fromMemory.config).toEqual(fromDatabase.config);
    expect(fromMemory.next).toEqual(fromDatabase.next);

    // Forgotten once settled: the same read goes to the database, and so does a second run's opening read.
    saver.forgetRun("run-1");
    reads.length = 0;
    await twoSteps.getState(saver.readAfterRunConfig("thread-1", "run-1"));
    await twoSteps.invoke({ steps: ["again"] }, runConfig("thread-1", "run-2"));
    expect(reads.length).toBeGreaterThanOrEqual(2);
    const after = await twoSteps.getState({ configurable: { thread_id: "thread-1" } });
    expect(after.values.steps).toEqual(["input", "first", "second", "again", "first", "second"]);
  });

  it("sees an interrupt the run ended on exactly as a database read does", async () => {
    const saver = new RunStampingCheckpointer(pool);
    const { asksHuman } = graphs(saver);
    saver.expectEmptyThread("run-3", "thread-2");
    await asksHuman.invoke({ steps: ["input"] }, runConfig("thread-2", "run-3"));
    await saver.writesSettled("run-3");
    reads.length = 0;
    const fromMemory = await asksHuman.getState(saver.readAfterRunConfig("thread-2", "run-3"));
    expect(reads).toEqual([]);
    const fromDatabase = await asksHuman.getState({ configurable: { thread_id: "thread-2" } });
    expect(fromMemory.next).toEqual(["ask"]);
    expect(fromMemory.tasks.map((task) => task.interrupts)).toEqual(fromDatabase.tasks.map((task) => task.interrupts));
    expect(fromMemory.tasks[0]?.interrupts[0]?.value).toBe("what now?");
    expect(fromMemory.values).toEqual(fromDatabase.values);
  });

  it("answers the opening read from memory only for the run and thread it was told about", async () => {
    const saver = new RunStampingCheckpointer(pool);
    const { twoSteps } = graphs(saver);
    await twoSteps.invoke({ steps: ["seed"] }, runConfig("thread-3", "run-4"));
    saver.expectEmptyThread("run-5", "another-thread");
    reads.length = 0;
    await twoSteps.invoke({ steps: ["more"] }, runConfig("thread-3", "run-5"));
    expect(reads.length).toBeGreaterThanOrEqual(1);
    const state = await twoSteps.getState({ configurable: { thread_id: "thread-3" } });
    expect(state.values.steps).toEqual(["seed", "first", "second", "more", "first", "second"]);
  });
});
