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
