import pg from "pg";
import type { DataSource } from "typeorm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunStampingCheckpointer } from "../../src/db/checkpointer.js";
import { createDataSource } from "../../src/db/data-source.js";
import { insertRunEvents } from "../../src/db/sql/insert-run-events.js";
import { serializeTraceRunWrites, upsertTraceRuns } from "../../src/db/sql/upsert-trace-runs.js";
import { newId } from "../../src/domain/ids.js";
import { deriveTraceRun } from "../../src/services/traces/derive-trace-run.js";
import { mergeRunOperation } from "../../src/services/traces/merge-run-record.js";
import { normalizeRunOperation } from "../../src/services/traces/normalize-run-operation.js";
import { parseRunTime } from "../../src/tracing/ingest/parse-run-time.js";
import { checkpointerGraphs, runConfig } from "../helpers/checkpointer-graphs.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";

// A run's output (checkpoints of durability async/exit, stream events, its own trace) commits
// without waiting for the WAL flush; the settle's flush covers it (db/sql/commit-flush.ts).
// PostgreSQL reads synchronous_commit when a transaction commits, so each statement is run here
// in a transaction, and the setting it leaves for that commit is read before rolling back.
let database: TestDatabase;
let pool: pg.Pool;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url, max: 4 });
  dataSource = createDataSource(pool);
  await dataSource.initialize();
});
afterAll(async () => {
  // TypeORM ends the pool it shares.
  await dataSource.destroy();
  await database.retire();
});

/** What synchronous_commit the transaction commits with after `work` ran in it (then rolled back). */
async function commitSettingAfter(work: (client: pg.PoolClient) => Promise<unknown>): Promise<string> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await work(client);
    const { rows } = await client.query<{ synchronous_commit: string }>("SHOW synchronous_commit");
    return rows[0]!.synchronous_commit;
  } finally {
    await client.query("ROLLBACK");
    client.release();
  }
}

/** The same on a TypeORM query runner: the event store and the trace store write through an EntityManager. */
async function commitSettingInTypeorm(work: (manager: DataSource["manager"]) => Promise<unknown>): Promise<string> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    await work(runner.manager);
    const [row] = (await runner.query("SHOW synchronous_commit")) as Array<{ synchronous_commit: string }>;
    return row!.synchronous_commit;
  } finally {
    await runner.rollbackTransaction();
    await runner.release();
  }
}

async function newRun(): Promise<string> {
  const [threadId, runId, assistantId] = [newId(), newId(), newId()];
  await pool.query(
    "INSERT INTO assistants (assistant_id, graph_id, name, version, created_at, updated_at) VALUES ($1, 'echo', 'echo', 1, now(), now())",
    [assistantId],
  );
  await pool.query("INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at, metadata) VALUES ($1, now(), now(), now(), '{}')", [threadId]);
  await pool.query(
    "INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, multitask_strategy, kwargs, created_at, updated_at, run_after, attempt) VALUES ($1, $2, $3, 'running', '{}', 'reject', '{}', now(), now(), now(), 1)",
    [runId, threadId, assistantId],
  );
  return runId;
}

describe("commits that need not wait for the WAL flush", () => {
  it("the session's own setting is 'on' (the server default), so every case below can tell", async () => {
    expect(await commitSettingAfter(async () => undefined)).toBe("on");
  });

  it("checkpoints of a run acknowledged when queued commit without the flush; a sync run's and a state edit's with it", async () => {
    const acknowledged = await commitSettingAfter(async (client) => {
      const saver = new RunStampingCheckpointer(client);
      saver.acknowledgeWhenQueued("run-async");
      await checkpointerGraphs(saver).twoSteps.invoke({ steps: ["input"] }, runConfig("thread-async", "run-async"));
      await saver.writesCommitted("run-async");
    });
    expect(acknowledged).toBe("off");

    const syncRun = await commitSettingAfter(async (client) => {
      const saver = new RunStampingCheckpointer(client);
      await checkpointerGraphs(saver).twoSteps.invoke({ steps: ["input"] }, runConfig("thread-sync", "run-sync"));
      await saver.writesCommitted("run-sync");
    });
    expect(syncRun).toBe("on");

    const stateEdit = await commitSettingAfter(async (client) => {
      const saver = new RunStampingCheckpointer(client);
      await checkpointerGraphs(saver).twoSteps.updateState({ configurable: { thread_id: "thread-edit" } }, { steps: ["edited"] }, "first");
    });
    expect(stateEdit).toBe("on");
  });

  it("stream events commit without the flush, also when every row is skipped (its run deleted meanwhile)", async () => {
    const runId = await newRun();
    const event = (id: string, seq: number) => ({ runId: id, threadId: newId(), seq, event: "values", data: "{}" });
    expect(await commitSettingInTypeorm((manager) => insertRunEvents(manager, [event(runId, 1), event(runId, 2)]))).toBe("off");
    expect(await commitSettingInTypeorm((manager) => insertRunEvents(manager, [event(newId(), 1)]))).toBe("off");
  });

  it("a trace batch commits without the flush only when asked (Hangar's own runs), an ingested one with it", async () => {
    const receivedAt = parseRunTime(new Date())!;
    const post = normalizeRunOperation({ id: newId(), name: "graph", runType: "chain", startTime: new Date().toISOString(), inputs: { question: "?" } }, "post");
    const record = mergeRunOperation(null, post, receivedAt);
    const payload = serializeTraceRunWrites([{ record, derived: deriveTraceRun(record, []) }]);
    const upsert = (awaitFlush: boolean) => (manager: DataSource["manager"]) => upsertTraceRuns(manager, payload, [], new Date(), { awaitFlush });
    expect(await commitSettingInTypeorm(upsert(false))).toBe("off");
    expect(await commitSettingInTypeorm(upsert(true))).toBe("on");
    // An empty batch too: the condition is evaluated once, before any row.
    expect(await commitSettingInTypeorm((manager) => upsertTraceRuns(manager, "[]", [], new Date(), { awaitFlush: false }))).toBe("off");
  });
});
