import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Annotation, Command, END, START, StateGraph, interrupt } from "@langchain/langgraph";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { RunStampingCheckpointer } from "../../src/db/checkpointer.js";
import { migrateOnly } from "../../src/db/migrate.js";
import { createLogger } from "../../src/logger.js";
import { useDatabaseClient } from "../helpers/database-client.js";
import { endPool } from "../helpers/test-pool.js";

const fixture = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/checkpoint-postgres-tables.sql");

const opened = useDatabaseClient();
let pool: pg.Pool;

// Registered after useDatabaseClient's: vitest runs afterAll hooks in reverse, so the pool ends first.
afterAll(async () => {
  if (pool) await endPool(pool);
});

// The graphs that wrote the fixture's two threads (node names are part of their checkpoints).
const State = Annotation.Root({
  steps: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
  answer: Annotation<string | null>({ reducer: (_, b) => b, default: () => null }),
});
function fixtureGraphs(saver: RunStampingCheckpointer) {
  const inner = new StateGraph(State).addNode("inner", () => ({ steps: ["inner"] })).addEdge(START, "inner").addEdge("inner", END).compile();
  const withSubgraph = new StateGraph(State)
    .addNode("first", () => ({ steps: ["first"] }))
    .addNode("sub", inner)
    .addNode("second", () => ({ steps: ["second"] }))
    .addEdge(START, "first")
    .addEdge("first", "sub")
    .addEdge("sub", "second")
    .addEdge("second", END)
    .compile({ checkpointer: saver });
  const asks = new StateGraph(State)
    .addNode("ask", () => ({ answer: interrupt("what now?") as string, steps: ["asked"] }))
    .addEdge(START, "ask")
    .addEdge("ask", END)
    .compile({ checkpointer: saver });
  return { withSubgraph, asks };
}

it("keeps the threads an earlier Hangar wrote through @langchain/langgraph-checkpoint-postgres", async () => {
  // The database as the previous version left it: the package's tables (and its migrations table)
  // holding two threads, one finished after two runs, one waiting at an interrupt.
  await opened.client.query("DROP TABLE checkpoints, checkpoint_blobs, checkpoint_writes");
  await opened.client.query("DELETE FROM hangar_migrations WHERE name = 'AdoptCheckpointTables1763760070000'");
  await opened.client.query(fs.readFileSync(fixture, "utf8"));
  const count = async () => (await opened.client.query("SELECT (SELECT count(*) FROM checkpoints) + (SELECT count(*) FROM checkpoint_blobs) + (SELECT count(*) FROM checkpoint_writes) AS n")).rows[0].n;
  const rowsBefore = await count();
  expect(Number(rowsBefore)).toBeGreaterThan(80);

  const applied = await migrateOnly(loadConfig({ DATABASE_URL: opened.database.url, LOG_LEVEL: "silent" }), createLogger("silent"));
  expect(applied).toEqual(["AdoptCheckpointTables1763760070000"]);
  expect(await count()).toBe(rowsBefore);
  expect((await opened.client.query("SELECT to_regclass('checkpoint_migrations') AS t")).rows[0].t).toBeNull();

  pool = new pg.Pool({ connectionString: opened.database.url, max: 2 });
  const { withSubgraph, asks } = fixtureGraphs(new RunStampingCheckpointer(pool));

  // What the old saver read back before the migration (recorded when the fixture was made).
  const finished = await withSubgraph.getState({ configurable: { thread_id: "old-thread-1" } });
  expect(finished.values).toEqual({
    steps: ["hello", "first", "hello", "first", "inner", "second", "again", "first", "hello", "first", "hello", "first", "inner", "second", "again", "first", "inner", "second"],
    answer: null,
  });
  expect(finished.next).toEqual([]);
  expect(finished.metadata).toMatchObject({ run_id: "old-run-2", purpose: "fixture", source: "loop" });
  const history = [];
  for await (const snapshot of withSubgraph.getStateHistory({ configurable: { thread_id: "old-thread-1" } })) history.push(snapshot);
  expect(history).toHaveLength(10);
  expect(history.filter((snapshot) => (snapshot.metadata as Record<string, unknown> | undefined)?.run_id === "old-run-1")).toHaveLength(5);
  const firstRun = await withSubgraph.getStateHistory({ configurable: { thread_id: "old-thread-1" } }, { filter: { run_id: "old-run-1", step: -1 } }).next();
  expect(firstRun.value?.metadata).toMatchObject({ source: "input", run_id: "old-run-1" });

  const waiting = await asks.getState({ configurable: { thread_id: "old-thread-2" } });
  expect(waiting.next).toEqual(["ask"]);
  expect(waiting.tasks[0]?.interrupts.map((entry) => entry.value)).toEqual(["what now?"]);

  // And the threads go on: the interrupted one resumes from its stored pending writes.
  const resumed = await asks.invoke(new Command({ resume: "carry on" }), { configurable: { thread_id: "old-thread-2", run_id: "new-run" } });
  expect(resumed).toEqual({ steps: ["q", "asked"], answer: "carry on" });
  const continued = await withSubgraph.invoke({ steps: ["more"] }, { configurable: { thread_id: "old-thread-1", run_id: "new-run-2" } });
  expect(continued.steps.slice(-2)).toEqual(["inner", "second"]);
});
