import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
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

interface SseFrame {
  event: string;
  data: unknown;
  id?: string;
}

/** Reads a whole text/event-stream body with a plain HTTP client. */
async function readFrames(response: Response): Promise<SseFrame[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.trim() && !block.startsWith(":"))
    .map((block) => {
      const fields = Object.fromEntries(
        block.split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
      );
      return { event: fields.event!, data: JSON.parse(fields.data!), id: fields.id };
    });
}

describe("SSE on the wire", () => {
  it("sends metadata first, then one updates event per node keyed by node name, then closes", async () => {
    const thread = await server.client.threads.create();
    const response = await server.request(`/threads/${thread.thread_id}/runs/stream`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "slow", input: human("wire"), stream_mode: ["updates"], context: { step_ms: 1 } }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const frames = await readFrames(response);
    expect(frames.map((frame) => frame.event)).toEqual(["metadata", "updates", "updates", "updates"]);
    const runId = (frames[0]!.data as { run_id: string }).run_id;
    expect(frames[0]!.data).toEqual({ run_id: runId, attempt: 1 });
    expect(response.headers.get("content-location")).toBe(`/threads/${thread.thread_id}/runs/${runId}`);
    expect(frames.slice(1).map((frame) => Object.keys(frame.data as object))).toEqual([["first"], ["second"], ["third"]]);
    expect(frames.map((frame) => frame.id)).toEqual(["0", "1", "2", "3"]);
    // The stream closed because the run ended, not because of a timeout.
    expect((await server.client.runs.get(thread.thread_id, runId)).status).toBe("success");
  });

  it("streams several modes, messages-tuple, custom-free graphs and subgraph-less namespaces", async () => {
    const thread = await server.client.threads.create();
    const events: string[] = [];
    for await (const part of server.client.runs.stream(thread.thread_id, "agent", {
      input: human("hello there"),
      streamMode: ["values", "updates", "messages-tuple", "debug", "tasks", "checkpoints"],
    })) {
      events.push(part.event);
    }
    expect(events[0]).toBe("metadata");
    for (const mode of ["values", "updates", "messages", "debug", "tasks", "checkpoints"]) expect(events).toContain(mode);
  });

  it("streams the messages mode as metadata, partial and complete events", async () => {
    const thread = await server.client.threads.create();
    const events: Array<{ event: string; data: unknown }> = [];
    for await (const part of server.client.runs.stream(thread.thread_id, "agent", {
      input: human("tokens please"),
      streamMode: "messages",
    })) {
      events.push(part);
    }
    const names = events.map((event) => event.event);
    expect(names).toContain("messages/metadata");
    expect(names).toContain("messages/partial");
    expect(names).toContain("messages/complete");
    const completed = events
      .filter((event) => event.event === "messages/complete")
      .flatMap((event) => event.data as Array<{ content: string; type: string }>);
    // Every message of the state is completed once: the input too, as LangGraph Platform does.
    expect(completed.map((message) => message.type)).toEqual(["human", "ai"]);
    expect(completed[1]!.content).toContain("tokens please");
  });

  it("with messages and values, completes each state message right after the values event that has it", async () => {
    const thread = await server.client.threads.create();
    const events: Array<{ event: string; data: unknown }> = [];
    for await (const part of server.client.runs.stream(thread.thread_id, "agent", {
      input: human("order"),
      streamMode: ["messages", "values"],
    })) {
      events.push(part);
    }
    const names = events.map((event) => event.event);
    expect(new Set(names)).toEqual(new Set(["metadata", "messages/metadata", "messages/partial", "messages/complete", "values"]));
    expect(names.at(-1)).toBe("messages/complete");
    expect(names.at(-2)).toBe("values");
    const lastValues = events.at(-2)!.data as { messages: Array<{ id: string }> };
    const lastComplete = events.at(-1)!.data as Array<{ id: string; type: string }>;
    expect(lastComplete.map((message) => message.id)).toEqual([lastValues.messages.at(-1)!.id]);
    // Partials of the model's message all come before its completion.
    const lastPartial = names.lastIndexOf("messages/partial");
    expect(lastPartial).toBeLessThan(names.length - 2);
  });

  it("streams LangChain callback events in events mode", async () => {
    const thread = await server.client.threads.create();
    const kinds = new Set<string>();
    for await (const part of server.client.runs.stream(thread.thread_id, "agent", { input: human("ev"), streamMode: "events" })) {
      if (part.event === "events") kinds.add((part.data as { event: string }).event);
    }
    expect(kinds).toContain("on_chain_start");
    expect(kinds).toContain("on_chat_model_stream");
  });

  it("replays a finished run's stream after Last-Event-ID, and all of it without one", async () => {
    const thread = await server.client.threads.create();
    const run = await server.client.runs.create(thread.thread_id, "slow", {
      input: human("again"),
      streamMode: ["updates"],
      context: { step_ms: 1 },
    });
    await server.client.runs.join(thread.thread_id, run.run_id);
    const all = [];
    for await (const part of server.client.runs.joinStream(thread.thread_id, run.run_id)) all.push(part);
    expect(all.map((part) => part.event)).toEqual(["metadata", "updates", "updates", "updates"]);
    const rest = [];
    for await (const part of server.client.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: "1" })) rest.push(part);
    expect(rest.map((part) => part.id)).toEqual(["2", "3"]);
    expect(Object.keys(rest[0]!.data as object)).toEqual(["second"]);
  });

  it("joins a live run's stream mid-way: replay of what was missed, then live events, then the end", async () => {
    const thread = await server.client.threads.create();
    const run = await server.client.runs.create(thread.thread_id, "slow", {
      input: human("live"),
      streamMode: ["updates"],
      context: { step_ms: 300 },
    });
    // Mid-way: its first step's update is stored, and the run still has steps to go.
    await vi.waitFor(async () => {
      const [row] = await sql<{ n: number }>(server.database, "SELECT count(*)::int AS n FROM run_events WHERE run_id = $1 AND event = 'updates'", [run.run_id]);
      expect(row!.n).toBeGreaterThan(0);
    }, { timeout: 10_000, interval: 20 });
    const parts = [];
    for await (const part of server.client.runs.joinStream(thread.thread_id, run.run_id)) parts.push(part);
    expect(parts.map((part) => part.event)).toEqual(["metadata", "updates", "updates", "updates"]);
    expect(parts.map((part) => part.id)).toEqual(["0", "1", "2", "3"]);
  });

  it("answers a stream request for a busy thread with a JSON 409", async () => {
    const thread = await server.client.threads.create();
    const run = await server.client.runs.create(thread.thread_id, "slow", { input: human("busy"), context: { step_ms: 100 } });
    const response = await server.request(`/threads/${thread.thread_id}/runs/stream`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "slow", input: human("second") }),
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ detail: expect.stringContaining("busy") });
    await server.client.runs.join(thread.thread_id, run.run_id);
  });

  it("sends a queued run's metadata as soon as it is queued, then its events once it runs, each once and as stored", async () => {
    const thread = await server.client.threads.create();
    // Holds the thread (15 s) until the test cancels it: the streamed run waits behind it.
    const first = await server.client.runs.create(thread.thread_id, "slow", { input: human("hold"), context: { step_ms: 5_000 } });
    const stream = server.client.runs.stream(thread.thread_id, "slow", {
      input: human("queued"),
      streamMode: ["updates"],
      context: { step_ms: 1 },
      multitaskStrategy: "enqueue",
    });
    const live = [];
    for await (const part of stream) {
      live.push(part);
      if (live.length === 1) {
        const runId = (part.data as { run_id: string }).run_id;
        expect(part).toMatchObject({ event: "metadata", id: "0", data: { run_id: runId, attempt: 1 } });
        // Sent while the run waits its turn: nothing has executed it yet.
        expect((await server.client.runs.get(thread.thread_id, runId)).status).toBe("pending");
        await server.client.runs.cancel(thread.thread_id, first.run_id);
      }
    }
    expect(live.map((part) => part.event)).toEqual(["metadata", "updates", "updates", "updates"]);
    const runId = (live[0]!.data as { run_id: string }).run_id;
    const stored = [];
    for await (const part of server.client.runs.joinStream(thread.thread_id, runId)) stored.push(part);
    expect(stored).toEqual(live);
  });
});
