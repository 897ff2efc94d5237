import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });

/** Counts the server's statements whose text or prepared name contains `fragment`. */
function countStatements(fragment: string): { count: number; stop(): void } {
  const pool = server.hangar.runtime.db.pool as unknown as { query: (...args: unknown[]) => unknown };
  const original = pool.query;
  const counter = {
    count: 0,
    stop: () => void (pool.query = original),
  };
  pool.query = (...args: unknown[]) => {
    const statement = args[0] as string | { text?: string; name?: string };
    const text = typeof statement === "string" ? statement : `${statement.name ?? ""} ${statement.text ?? ""}`;
    if (text.includes(fragment)) counter.count += 1;
    return original.apply(pool, args);
  };
  return counter;
}

describe("runs through the official SDK client", () => {
  it("creates a background run and joins it for the final values", async () => {
    const thread = await server.client.threads.create();
    const run = await server.client.runs.create(thread.thread_id, "echo", { input: human("hi") });
    expect(run).toMatchObject({ thread_id: thread.thread_id, status: "pending", multitask_strategy: "reject" });
    const values = await server.client.runs.join(thread.thread_id, run.run_id);
    expect(values).toEqual({
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "echo: hi" },
      ],
    });
    const finished = await server.client.runs.get(thread.thread_id, run.run_id);
    expect(finished.status).toBe("success");
    const after = await server.client.threads.get(thread.thread_id);
    expect(after.status).toBe("idle");
    expect(after.metadata).toMatchObject({ graph_id: "echo" });
  });

  it("waits for a run and returns its values", async () => {
    const thread = await server.client.threads.create();
    const values = await server.client.runs.wait(thread.thread_id, "echo", { input: human("wait for me") });
    expect(values).toMatchObject({ messages: [{ content: "wait for me" }, { content: "echo: wait for me" }] });
  });

  it("streams metadata first, one updates event per node, then closes", async () => {
    const thread = await server.client.threads.create();
    const events = [];
    for await (const part of server.client.runs.stream(thread.thread_id, "slow", {
      input: human("go"),
      streamMode: "updates",
      context: { step_ms: 5 },
    })) {
      events.push(part);
    }
    expect(events.map((e) => e.event)).toEqual(["metadata", "updates", "updates", "updates"]);
    expect(events[0]!.data).toMatchObject({ attempt: 1 });
    expect(Object.keys(events[1]!.data as object)).toEqual(["first"]);
    expect(events[3]!.data).toEqual({ third: { messages: [{ role: "assistant", content: "third done" }] } });
  });

  it("runs statelessly and deletes the temporary thread afterwards", async () => {
    const values = await server.client.runs.wait(null, "echo", { input: human("stateless") });
    expect(values).toMatchObject({ messages: [{ content: "stateless" }, { content: "echo: stateless" }] });
  });

  it("reports a failing graph as an error event and an error run", async () => {
    const thread = await server.client.threads.create();
    const events = [];
    for await (const part of server.client.runs.stream(thread.thread_id, "failing", { input: human("boom") })) {
      events.push(part);
    }
    expect(events.at(-1)).toMatchObject({ event: "error", data: { message: "the fixture graph failed on purpose" } });
    const [run] = await server.client.runs.list(thread.thread_id);
    expect(run!.status).toBe("error");
    expect((await server.client.threads.get(thread.thread_id)).status).toBe("error");
  });

  it("joins a run this process executes from its worker's outcome, without reading the run", async () => {
    const { client } = server;
    const outcomeReads = countStatements("select_run_outcome");
    try {
      const thread = await client.threads.create();
      const run = await client.runs.create(thread.thread_id, "slow", { input: human("go"), context: { step_ms: 100 } });
      while ((await client.runs.get(thread.thread_id, run.run_id)).status !== "running") await new Promise((resolve) => setTimeout(resolve, 10));
      const otherThread = await client.threads.create();
      await expect(client.runs.join(otherThread.thread_id, run.run_id)).rejects.toMatchObject({ status: 404 });
      outcomeReads.count = 0;
      const values = await client.runs.join(thread.thread_id, run.run_id);
      expect(outcomeReads.count).toBe(0);
      expect(values).toEqual({ messages: [{ role: "user", content: "go" }, ...["first", "second", "third"].map((node) => ({ role: "assistant", content: `${node} done` }))] });
      // Once settled, a join reads what was recorded.
      expect(await client.runs.join(thread.thread_id, run.run_id)).toEqual(values);
      expect(outcomeReads.count).toBe(1);
    } finally {
      outcomeReads.stop();
    }
  });

  it("joins a run it created that is still queued without reading it, and answers once it ends", async () => {
    const { client } = server;
    const outcomeReads = countStatements("select_run_outcome");
    try {
      const thread = await client.threads.create();
      await client.runs.create(thread.thread_id, "slow", { input: human("first"), context: { step_ms: 100 } });
      const queued = await client.runs.create(thread.thread_id, "echo", { input: human("second"), multitaskStrategy: "enqueue" });
      expect((await client.runs.get(thread.thread_id, queued.run_id)).status).toBe("pending");
      outcomeReads.count = 0;
      const values = (await client.runs.join(thread.thread_id, queued.run_id)) as { messages: Array<{ content: string }> };
      expect(outcomeReads.count).toBe(0);
      expect(values.messages.map((message) => message.content)).toEqual(["first", "first done", "second done", "third done", "second", "echo: second"]);
    } finally {
      outcomeReads.stop();
    }
  });

  it("composes each run from the assistant as it is now, even when another process changed it", async () => {
    const { client } = server;
    const assistant = await client.assistants.create({ graphId: "echo", context: { tone: "first" } });
    const contextOf = async () => {
      const thread = await client.threads.create();
      const run = await client.runs.create(thread.thread_id, assistant.assistant_id, { input: human("hi") });
      await client.runs.join(thread.thread_id, run.run_id);
      return (run as unknown as { kwargs: { context?: Record<string, unknown> } }).kwargs.context;
    };
    expect(await contextOf()).toEqual({ tone: "first" });
    expect(await contextOf()).toEqual({ tone: "first" });

    // Through this server's API: a new active version.
    await client.assistants.update(assistant.assistant_id, { context: { tone: "second" } });
    expect(await contextOf()).toEqual({ tone: "second" });

    // Behind its back, as another Hangar process on the same database would.
    await sql(server.database, `UPDATE assistants SET context = '{"tone": "third"}', version = version + 1, updated_at = now() WHERE assistant_id = $1`, [
      assistant.assistant_id,
    ]);
    expect(await contextOf()).toEqual({ tone: "third" });
    expect(await contextOf()).toEqual({ tone: "third" });
    await sql(server.database, `DELETE FROM assistants WHERE assistant_id = $1`, [assistant.assistant_id]);
    const thread = await client.threads.create();
    await expect(client.runs.create(thread.thread_id, assistant.assistant_id, { input: human("hi") })).rejects.toMatchObject({ status: 404 });
    expect(await client.runs.list(thread.thread_id)).toEqual([]);
  });
});
