import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { ContinueThreadDocument } from "./generated/graphql.js";
import { errorCode, executeOk, executeOperation } from "./helpers.js";

/** continueThread: edit the state at a checkpoint and/or run from it (fork and replay). */

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures");
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ configPath: path.join(fixtures, "studio.langgraph.json") });
});

afterAll(async () => {
  await server?.close();
});

type Counter = { total: number; step: number; log: string[] };

/** A thread that ran `counter` once from total 1: add (2) then double (4). Its checkpoints, oldest first. */
async function counterThread() {
  const { thread_id: threadId } = await server.client.threads.create();
  await server.client.runs.wait(threadId, "counter", { input: { total: 1, step: 1 } });
  const history = (await server.client.threads.getHistory<Counter>(threadId, { limit: 10 })).reverse();
  return { threadId, history };
}

async function settled(threadId: string, runId: string): Promise<Counter> {
  await server.client.runs.join(threadId, runId);
  return (await server.client.threads.getState<Counter>(threadId)).values;
}

describe("continueThread", () => {
  it("edits the state at a checkpoint as a node and continues from the edit", async () => {
    const { threadId, history } = await counterThread();
    const afterAdd = history.find((state) => state.metadata?.step === 1)!;
    expect(afterAdd.values).toEqual({ total: 2, step: 1, log: ["add 1"] });

    const { continueThread } = await executeOk(server, ContinueThreadDocument, {
      input: { threadId, assistantId: "counter", checkpointId: afterAdd.checkpoint.checkpoint_id, values: { total: 10 }, asNode: "add" },
    });
    expect(continueThread.editCheckpointId).toEqual(expect.any(String));
    expect(continueThread.checkpointId).toBe(continueThread.editCheckpointId);
    expect(continueThread.run.threadId).toBe(threadId);
    expect(await settled(threadId, continueThread.run.runId)).toEqual({ total: 20, step: 1, log: ["add 1", "double"] });

    // The edit forked off the checkpoint after `add`; the first branch is still in the history.
    const after = await server.client.threads.getHistory<Counter>(threadId, { limit: 20 });
    const edit = after.find((state) => state.checkpoint.checkpoint_id === continueThread.editCheckpointId)!;
    expect(edit.parent_checkpoint?.checkpoint_id).toBe(afterAdd.checkpoint.checkpoint_id);
    expect(after.filter((state) => state.parent_checkpoint?.checkpoint_id === afterAdd.checkpoint.checkpoint_id)).toHaveLength(2);
  });

  it("replays from an earlier checkpoint without an edit: a second branch", async () => {
    const { threadId, history } = await counterThread();
    const start = history.find((state) => state.metadata?.step === 0)!;
    await server.client.threads.updateState(threadId, { values: { total: 100 }, asNode: "double" });
    expect((await server.client.threads.getState<Counter>(threadId)).values.total).toBe(100);

    const { continueThread } = await executeOk(server, ContinueThreadDocument, {
      input: { threadId, assistantId: "counter", checkpointId: start.checkpoint.checkpoint_id },
    });
    expect(continueThread.editCheckpointId).toBeNull();
    expect(continueThread.checkpointId).toBe(start.checkpoint.checkpoint_id);
    expect(await settled(threadId, continueThread.run.runId)).toEqual({ total: 4, step: 1, log: ["add 1", "double"] });
  });

  it("refuses an unknown assistant before writing anything, and an update the graph refuses", async () => {
    const { threadId, history } = await counterThread();
    const latest = history.at(-1)!;
    const unknown = await executeOperation(server, ContinueThreadDocument, {
      input: { threadId, assistantId: "no-such-graph", values: { total: 0 }, asNode: "add" },
    });
    expect(errorCode(unknown)).toBe("NOT_FOUND");
    const now = await server.client.threads.getState<Counter>(threadId);
    expect(now.checkpoint.checkpoint_id).toBe(latest.checkpoint.checkpoint_id);

    const badNode = await executeOperation(server, ContinueThreadDocument, {
      input: { threadId, assistantId: "counter", values: { total: 0 }, asNode: "no_such_node" },
    });
    expect(errorCode(badNode)).toBe("INVALID_INPUT");
    expect(badNode.errors?.[0]?.message).toMatch(/no_such_node/);
  });

  it("refuses a checkpoint that is not on the thread (unknown, or another thread's) and writes nothing", async () => {
    const { threadId, history } = await counterThread();
    const other = await counterThread();
    const latest = history.at(-1)!;
    const runsBefore = await server.client.runs.list(threadId);
    for (const checkpointId of ["1f0c0c0c-0000-6000-8000-000000000000", other.history.at(-1)!.checkpoint.checkpoint_id!]) {
      for (const edit of [{}, { values: { total: 0 }, asNode: "add" }]) {
        const refused = await executeOperation(server, ContinueThreadDocument, { input: { threadId, assistantId: "counter", checkpointId, ...edit } });
        expect(errorCode(refused)).toBe("NOT_FOUND");
        expect(refused.errors?.[0]?.message).toContain(checkpointId);
      }
    }
    expect((await server.client.threads.getState<Counter>(threadId)).checkpoint.checkpoint_id).toBe(latest.checkpoint.checkpoint_id);
    expect(await server.client.threads.getHistory(threadId, { limit: 20 })).toHaveLength(history.length);
    expect(await server.client.runs.list(threadId)).toEqual(runsBefore);
  });

  it("on a busy thread (reject): THREAD_BUSY, or CONFLICT with an edit, and the state, checkpoints and runs are unchanged", async () => {
    const { threadId, history } = await counterThread();
    // Due in an hour: the thread stays busy with a pending run for the whole test.
    const pending = await server.client.runs.create(threadId, "counter", { input: { total: 5 }, afterSeconds: 3600 });
    const before = {
      checkpoints: await checkpointCount(threadId),
      state: await server.client.threads.getState<Counter>(threadId),
      runs: await server.client.runs.list(threadId),
    };
    expect(before.runs.map((run) => run.run_id)).toContain(pending.run_id);
    const replay = await executeOperation(server, ContinueThreadDocument, { input: { threadId, assistantId: "counter" } });
    expect(errorCode(replay)).toBe("THREAD_BUSY");
    const edit = await executeOperation(server, ContinueThreadDocument, {
      input: { threadId, assistantId: "counter", checkpointId: history[1]!.checkpoint.checkpoint_id, values: { total: 0 }, asNode: "add" },
    });
    expect(errorCode(edit)).toBe("CONFLICT");
    expect(await checkpointCount(threadId)).toBe(before.checkpoints);
    expect(await server.client.threads.getState<Counter>(threadId)).toEqual(before.state);
    expect(await server.client.runs.list(threadId)).toEqual(before.runs);
  });

  it("a run queued on the thread while the edit is being written waits for it: the edit and its run commit together, first", async () => {
    const { threadId, history } = await counterThread();
    const afterAdd = history.find((state) => state.metadata?.step === 1)!;
    const checkpointsBefore = await checkpointCount(threadId);
    // Another session holds back every checkpoint insert, so the edit stops half-way, as a slow
    // write would; meanwhile another client queues a run on the thread.
    const blocker = new pg.Client({ connectionString: server.database.url });
    await blocker.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query("LOCK TABLE checkpoints IN SHARE ROW EXCLUSIVE MODE");
      const continued = executeOperation(server, ContinueThreadDocument, {
        input: { threadId, assistantId: "counter", checkpointId: afterAdd.checkpoint.checkpoint_id, values: { total: 10 }, asNode: "add" },
      });
      await vi.waitFor(async () => expect(await backendsWaitingFor("relation")).toBeGreaterThan(0), { timeout: 10_000, interval: 25 });
      let otherSettled = false;
      // Due in an hour, it keeps the thread busy: had it been queued between the edit and the
      // edit's run, that run would be refused (reject) with the edit already written.
      const other = server.client.runs.create(threadId, "counter", { input: { total: 1 }, multitaskStrategy: "enqueue", afterSeconds: 3600 });
      void other.then(
        () => (otherSettled = true),
        () => (otherSettled = true),
      );
      // Either it went through (the edit did not hold the thread) or it waits for the thread's row lock.
      await vi.waitFor(async () => expect(otherSettled || (await backendsWaitingFor("tuple", "transactionid")) > 0).toBe(true), {
        timeout: 10_000,
        interval: 25,
      });
      await blocker.query("COMMIT");

      const result = await continued;
      expect(result.errors).toBeUndefined();
      const { continueThread } = result.data!;
      const otherRun = await other;
      // The edit's run was queued before the other one, so it runs first, from the edit.
      expect(await settled(threadId, continueThread.run.runId)).toEqual({ total: 20, step: 1, log: ["add 1", "double"] });
      const runs = await server.client.runs.list(threadId);
      expect(runs.slice(0, 2).map((run) => [run.run_id, run.status])).toEqual([
        [otherRun.run_id, "pending"],
        [continueThread.run.runId, "success"],
      ]);
      expect(await checkpointCount(threadId)).toBeGreaterThan(checkpointsBefore);
      const edit = (await server.client.threads.getHistory<Counter>(threadId, { limit: 50 })).find(
        (state) => state.checkpoint.checkpoint_id === continueThread.editCheckpointId,
      );
      expect(edit?.values.total).toBe(10);
    } finally {
      await blocker.end();
    }
  });
});

async function checkpointCount(threadId: string): Promise<number> {
  const [row] = await sql<{ n: number }>(server.database, "SELECT count(*)::int AS n FROM checkpoints WHERE thread_id = $1", [threadId]);
  return row!.n;
}

/** Backends of the test database waiting for a lock of one of these kinds (pg_locks.locktype). */
async function backendsWaitingFor(...lockTypes: string[]): Promise<number> {
  const [row] = await sql<{ n: number }>(
    server.database,
    `SELECT count(DISTINCT l.pid)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE NOT l.granted AND l.locktype = ANY($1::text[]) AND a.datname = current_database()`,
    [lockTypes],
  );
  return row!.n;
}
