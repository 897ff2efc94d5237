import pg from "pg";
import type { DataSource, QueryRunner } from "typeorm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EnqueueRunsInSets1764500000000 } from "../../migrations/1764500000000-enqueue-runs-in-sets.js";
import { createDataSource } from "../../src/db/data-source.js";
import type { RunToEnqueue } from "../../src/db/sql/enqueue-rows.js";
import { enqueueRuns } from "../../src/db/sql/enqueue-runs.js";
import { newId } from "../../src/domain/ids.js";
import type { JsonObject } from "../../src/domain/json.js";
import { composeRun, type MultitaskStrategy } from "../../src/domain/run.js";
import { runRequestOf } from "../../src/domain/run-request.js";
import { sql } from "../helpers/sql.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";

// enqueueRuns against hangar_enqueue_runs: the set-based steps (new threads; enqueue runs of
// cron firings on existing threads) and the per-run decision, mixed in one batch, answer each
// run in its order. Every case runs on both plan shapes PL/pgSQL may use for the function's
// statements (a generic plan, with its estimates of a few rows per array, and custom plans), on a
// session forced into each, since the function's statements must be right on both; and once on
// the body the migration's down() restores, which must answer the same.
const ASSISTANT = { assistantId: newId(), graphId: "echo", version: 1, context: {}, config: {} };

interface EntryOptions {
  strategy?: MultitaskStrategy;
  createThread?: boolean;
  skipLockedThread?: boolean;
  threadMetadata?: JsonObject;
  assistantSeen?: RunToEnqueue["assistantSeen"];
  encryptionContext?: JsonObject | null;
}

function entry(threadId: string, options: EntryOptions = {}): RunToEnqueue {
  const now = new Date();
  const request = runRequestOf({ threadId, assistantId: ASSISTANT.assistantId, multitaskStrategy: options.strategy ?? "reject" });
  const run = composeRun({ assistant: ASSISTANT, request, threadId, metadata: {}, onCompletion: null, now, runAfter: now });
  return {
    run,
    stored: { metadata: run.metadata, kwargs: run.kwargs as unknown as JsonObject, encryptionContext: options.encryptionContext ?? null },
    cronId: null,
    thread: { metadata: options.threadMetadata ?? {}, createIfMissing: options.createThread ?? false, skipLockedThread: options.skipLockedThread ?? false },
    assistantSeen: options.assistantSeen ?? null,
  };
}

/** A cron firing's run: enqueue, its thread skipped when locked. */
const cronEntry = (threadId: string, threadMetadata: JsonObject = {}) =>
  entry(threadId, { strategy: "enqueue", skipLockedThread: true, threadMetadata });
/** A stateless run: a new thread of its own. */
const statelessEntry = (options: EntryOptions = {}) => entry(newId(), { strategy: "enqueue", createThread: true, skipLockedThread: true, ...options });

/** The migration run by hand on a test database (TypeORM's runner only lends it `query`). */
const migrationRunner = (database: TestDatabase) => ({ query: (text: string) => sql(database, text) }) as unknown as QueryRunner;

/** Threads in the states the cases need, and what a case left on them, on the describe's database. */
function threadFixtures(on: () => { database: TestDatabase; dataSource: DataSource }) {
  async function newThread(metadata: JsonObject = {}): Promise<string> {
    const threadId = newId();
    await sql(on().database, "INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at, metadata) VALUES ($1, now(), now(), now(), $2)", [
      threadId,
      metadata,
    ]);
    return threadId;
  }

  /** A thread with a pending run, queued by the function itself. */
  async function busyThread(): Promise<{ threadId: string; runId: string }> {
    const threadId = await newThread();
    const first = entry(threadId);
    expect(await enqueueRuns(on().dataSource.manager, [first])).toEqual([created()]);
    return { threadId, runId: first.run.runId };
  }

  const runsOf = (threadId: string) =>
    sql<{ run_id: string; status: string; multitask_strategy: string; encryption_context: JsonObject | null }>(
      on().database,
      "SELECT run_id, status, multitask_strategy, encryption_context FROM runs WHERE thread_id = $1 ORDER BY created_at, run_id",
      [threadId],
    );
  const threadOf = async (threadId: string) =>
    (
      await sql<{ status: string; metadata: JsonObject; encryption_context: JsonObject | null }>(
        on().database,
        "SELECT status, metadata, encryption_context FROM threads WHERE thread_id = $1",
        [threadId],
      )
    )[0];
  return { newThread, busyThread, runsOf, threadOf };
}

const created = (endedRunIds: string[] = []) => ({ outcome: "created", cancelled: { endedRunIds, signalledRunIds: [] } });

const VARIANTS = [
  { body: "set-based", planCacheMode: "force_generic_plan" },
  { body: "set-based", planCacheMode: "force_custom_plan" },
  { body: "previous (down)", planCacheMode: "auto" },
] as const;

for (const { body, planCacheMode } of VARIANTS) {
  describe(`hangar_enqueue_runs through enqueueRuns (${body} body, plan_cache_mode ${planCacheMode})`, () => {
    let database: TestDatabase;
    let dataSource: DataSource;

    beforeAll(async () => {
      database = await createTestDatabase();
      // One connection, in the plan mode under test, for every statement of the batch.
      const pool = new pg.Pool({ connectionString: database.url, max: 1, options: `-c plan_cache_mode=${planCacheMode}` });
      dataSource = createDataSource(pool);
      await dataSource.initialize();
      if (body === "previous (down)") await new EnqueueRunsInSets1764500000000().down(migrationRunner(database));
      await sql(database, "INSERT INTO assistants (assistant_id, graph_id, name, version, created_at, updated_at) VALUES ($1, 'echo', 'echo', 1, now(), now())", [
        ASSISTANT.assistantId,
      ]);
    });
    afterAll(async () => {
      // TypeORM ends the pool it was given.
      await dataSource?.destroy();
      await database?.retire();
    });

    const { newThread, busyThread, runsOf, threadOf } = threadFixtures(() => ({ database, dataSource }));

    it("answers every path of one batch in its order: new threads, cron runs, and the per-run decisions", async () => {
      const rejecting = await busyThread();
      const interrupted = await busyThread();
      const existingWithRun = await busyThread();
      const cronThread = await newThread({ owner: "ops" });
      const stateless = statelessEntry({ threadMetadata: { graph_id: "echo" }, encryptionContext: { tenant: "a" } });
      const batch = [
        stateless,
        // A second run for the thread the first creates: decided after it, so it sees that run.
        entry(stateless.run.threadId, { createThread: true }),
        cronEntry(cronThread, { graph_id: "echo" }),
        entry(rejecting.threadId),
        entry(interrupted.threadId, { strategy: "interrupt" }),
        cronEntry(newId()),
        // if_not_exists create on a thread that exists: no thread is made, the run queues behind.
        entry(existingWithRun.threadId, { strategy: "enqueue", createThread: true }),
        entry(await newThread(), { assistantSeen: { version: 2, updatedAt: new Date() } }),
      ];

      expect(await enqueueRuns(dataSource.manager, batch)).toEqual([
        created(),
        { outcome: "busy" },
        created(),
        { outcome: "busy" },
        created([interrupted.runId]),
        { outcome: "thread-missing" },
        created(),
        { outcome: "assistant-changed" },
      ]);
      expect(await threadOf(stateless.run.threadId)).toEqual({ status: "busy", metadata: { graph_id: "echo" }, encryption_context: { tenant: "a" } });
      expect(await runsOf(stateless.run.threadId)).toEqual([
        { run_id: stateless.run.runId, status: "pending", multitask_strategy: "enqueue", encryption_context: { tenant: "a" } },
      ]);
      expect(await threadOf(cronThread)).toMatchObject({ status: "busy", metadata: { owner: "ops", graph_id: "echo" } });
      expect((await runsOf(cronThread)).map((run) => run.run_id)).toEqual([batch[2]!.run.runId]);
      expect((await runsOf(rejecting.threadId)).map((run) => run.run_id)).toEqual([rejecting.runId]);
      expect((await runsOf(interrupted.threadId)).map((run) => run.status)).toEqual(["interrupted", "pending"]);
      expect((await runsOf(existingWithRun.threadId)).map((run) => run.run_id)).toEqual([existingWithRun.runId, batch[6]!.run.runId]);
    });

    it("queues a batch of 1,000 stateless runs, some of whose threads already exist, each answered in its order", async () => {
      const batch = Array.from({ length: 1000 }, () => statelessEntry());
      // Every tenth thread exists already: its run is left to the per-run decision (queued: no active run).
      const existing = batch.filter((_, index) => index % 10 === 0);
      for (const item of existing) await sql(database, "INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at) VALUES ($1, now(), now(), now())", [item.run.threadId]);

      const outcomes = await enqueueRuns(dataSource.manager, batch);

      expect(outcomes).toEqual(batch.map(() => created()));
      const counts = await sql<{ runs: number; busy: number }>(
        database,
        "SELECT (SELECT count(*)::int FROM runs WHERE run_id = ANY($1::uuid[])) AS runs, (SELECT count(*)::int FROM threads WHERE thread_id = ANY($2::uuid[]) AND status = 'busy') AS busy",
        [batch.map((item) => item.run.runId), batch.map((item) => item.run.threadId)],
      );
      expect(counts).toEqual([{ runs: 1000, busy: 1000 }]);
    });

    it("cron runs: a thread locked elsewhere answers thread-locked and gets nothing; two runs of one thread both queue, its last thread metadata merged last", async () => {
      const locked = await newThread();
      const twice = await newThread({ kept: true });
      const free = await newThread();
      const holder = new pg.Client({ connectionString: database.url });
      await holder.connect();
      try {
        await holder.query("BEGIN");
        await holder.query("SELECT 1 FROM threads WHERE thread_id = $1 FOR UPDATE", [locked]);
        const batch = [cronEntry(locked), cronEntry(twice, { n: 1, first: true }), cronEntry(twice, { n: 2 }), cronEntry(free)];
        expect(await enqueueRuns(dataSource.manager, batch)).toEqual([{ outcome: "thread-locked" }, created(), created(), created()]);
        expect(await threadOf(twice)).toMatchObject({ status: "busy", metadata: { kept: true, n: 2 } });
        expect((await runsOf(twice)).map((run) => run.run_id).sort()).toEqual([batch[1]!.run.runId, batch[2]!.run.runId].sort());
        expect(await runsOf(free)).toHaveLength(1);
      } finally {
        await holder.query("ROLLBACK");
        await holder.end();
      }
      expect(await runsOf(locked)).toEqual([]);
      expect(await threadOf(locked)).toMatchObject({ status: "idle" });
    });

    it("a cron run on a thread that also gets a run needing a decision goes through that decision, in order", async () => {
      const { threadId, runId } = await busyThread();
      // The reject run sees the thread busy; the cron run beside it still queues.
      const batch = [entry(threadId), cronEntry(threadId)];
      expect(await enqueueRuns(dataSource.manager, batch)).toEqual([{ outcome: "busy" }, created()]);
      expect((await runsOf(threadId)).map((run) => run.run_id)).toEqual([runId, batch[1]!.run.runId]);
    });
  });
}

// A run alone goes straight to hangar_enqueue_run (src/db/sql/enqueue-run.ts): every path must
// answer and write what the batch function does for it (the cases above). The batch function is
// dropped from this database, so a run alone that still went through it fails.
for (const planCacheMode of ["force_generic_plan", "force_custom_plan"] as const) {
  describe(`a run alone through enqueueRuns: hangar_enqueue_run without the batch function (plan_cache_mode ${planCacheMode})`, () => {
    let database: TestDatabase;
    let dataSource: DataSource;
    let assistantUpdatedAt: Date;

    beforeAll(async () => {
      database = await createTestDatabase();
      await sql(database, "DROP FUNCTION hangar_enqueue_runs");
      const pool = new pg.Pool({ connectionString: database.url, max: 1, options: `-c plan_cache_mode=${planCacheMode}` });
      dataSource = createDataSource(pool);
      await dataSource.initialize();
      const [assistant] = await sql<{ updated_at: Date }>(
        database,
        "INSERT INTO assistants (assistant_id, graph_id, name, version, created_at, updated_at) VALUES ($1, 'echo', 'echo', 1, now(), date_trunc('milliseconds', now())) RETURNING updated_at",
        [ASSISTANT.assistantId],
      );
      assistantUpdatedAt = assistant!.updated_at;
    });
    afterAll(async () => {
      await dataSource?.destroy();
      await database?.retire();
    });

    const { newThread, busyThread, runsOf, threadOf } = threadFixtures(() => ({ database, dataSource }));
    const alone = async (item: RunToEnqueue) => (await enqueueRuns(dataSource.manager, [item]))[0];

    it("a new thread with its first run, and a run asking for a thread that exists (queued behind its run)", async () => {
      const stateless = statelessEntry({ threadMetadata: { graph_id: "echo" }, encryptionContext: { tenant: "a" } });
      expect(await alone(stateless)).toEqual(created());
      expect(await threadOf(stateless.run.threadId)).toEqual({ status: "busy", metadata: { graph_id: "echo" }, encryption_context: { tenant: "a" } });
      expect(await runsOf(stateless.run.threadId)).toEqual([
        { run_id: stateless.run.runId, status: "pending", multitask_strategy: "enqueue", encryption_context: { tenant: "a" } },
      ]);

      const existing = await busyThread();
      const behind = entry(existing.threadId, { strategy: "enqueue", createThread: true });
      expect(await alone(behind)).toEqual(created());
      expect((await runsOf(existing.threadId)).map((run) => run.run_id)).toEqual([existing.runId, behind.run.runId]);
    });

    it("reject: queued on an idle thread (its metadata merged), refused on a busy one with nothing written, missing thread", async () => {
      const idle = await newThread({ kept: true });
      const queued = entry(idle, { threadMetadata: { graph_id: "echo" }, assistantSeen: { version: 1, updatedAt: assistantUpdatedAt } });
      expect(await alone(queued)).toEqual(created());
      expect(await threadOf(idle)).toMatchObject({ status: "busy", metadata: { kept: true, graph_id: "echo" } });
      expect((await runsOf(idle)).map((run) => run.run_id)).toEqual([queued.run.runId]);

      const busy = await busyThread();
      expect(await alone(entry(busy.threadId))).toEqual({ outcome: "busy" });
      expect((await runsOf(busy.threadId)).map((run) => run.run_id)).toEqual([busy.runId]);

      expect(await alone(entry(newId()))).toEqual({ outcome: "thread-missing" });
    });

    it("interrupt and rollback end the thread's pending run and queue the new one", async () => {
      const interrupted = await busyThread();
      expect(await alone(entry(interrupted.threadId, { strategy: "interrupt" }))).toEqual(created([interrupted.runId]));
      expect((await runsOf(interrupted.threadId)).map((run) => run.status)).toEqual(["interrupted", "pending"]);

      const rolledBack = await busyThread();
      const replacing = entry(rolledBack.threadId, { strategy: "rollback" });
      expect(await alone(replacing)).toEqual(created([rolledBack.runId]));
      expect((await runsOf(rolledBack.threadId)).map((run) => run.run_id)).toEqual([replacing.run.runId]);
    });

    it("a changed assistant: assistant-changed, nothing written", async () => {
      const threadId = await newThread();
      expect(await alone(entry(threadId, { assistantSeen: { version: 2, updatedAt: assistantUpdatedAt } }))).toEqual({ outcome: "assistant-changed" });
      expect(await runsOf(threadId)).toEqual([]);
      expect(await threadOf(threadId)).toMatchObject({ status: "idle" });
    });

    it("a cron run: thread-locked on a thread held elsewhere (nothing written), thread-missing on none", async () => {
      const locked = await newThread();
      const holder = new pg.Client({ connectionString: database.url });
      await holder.connect();
      try {
        await holder.query("BEGIN");
        await holder.query("SELECT 1 FROM threads WHERE thread_id = $1 FOR UPDATE", [locked]);
        expect(await alone(cronEntry(locked))).toEqual({ outcome: "thread-locked" });
      } finally {
        await holder.query("ROLLBACK");
        await holder.end();
      }
      expect(await runsOf(locked)).toEqual([]);
      expect(await alone(cronEntry(newId()))).toEqual({ outcome: "thread-missing" });
    });

    it("inside a transaction: the caller's all-or-nothing (rolled back, nothing stays)", async () => {
      const threadId = await newThread();
      const queued = entry(threadId);
      await expect(
        dataSource.transaction(async (manager) => {
          expect(await enqueueRuns(manager, [queued])).toEqual([created()]);
          throw new Error("the caller fails after queuing");
        }),
      ).rejects.toThrow("the caller fails after queuing");
      expect(await runsOf(threadId)).toEqual([]);
      expect(await threadOf(threadId)).toMatchObject({ status: "idle" });
    });
  });
}

describe("the migration", () => {
  it("down() restores the previous body (planned as before) and up() brings this one back, same signature", async () => {
    const database = await createTestDatabase();
    try {
      const source = async () =>
        (
          await sql<{ source: string; config: string[] | null; count: number }>(
            database,
            "SELECT max(prosrc) AS source, max(proconfig::text)::text[] AS config, count(*)::int AS count FROM pg_proc WHERE proname = 'hangar_enqueue_runs'",
          )
        )[0]!;
      const migrated = await source();
      const migration = new EnqueueRunsInSets1764500000000();
      await migration.down(migrationRunner(database));
      const previous = await source();
      expect(previous.count).toBe(1);
      expect(previous.source).not.toBe(migrated.source);
      expect(migrated.config).toEqual(["plan_cache_mode=force_generic_plan"]);
      expect(previous.config).toBeNull();
      await migration.up(migrationRunner(database));
      expect(await source()).toEqual(migrated);
    } finally {
      await database.retire();
    }
  });
});
