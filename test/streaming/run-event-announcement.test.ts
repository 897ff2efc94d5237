import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BusMessage } from "../../src/streaming/run-event-bus.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Other processes' readers subscribe to the bus and then read the database: an event sent to them
// before it was committed could fall between the two and reach them only with the run's next
// event. So what goes to other processes (Redis in production; a recording transport here) must
// already be stored, in order, and a run's end must come after all of its events.

interface Sent {
  message: BusMessage;
  /** Whether the run's event was in the database when it was sent (read right then, on another connection). */
  storedWhenSent?: Promise<boolean>;
  /** The run's status in the database when the event was sent. */
  runStatusWhenSent?: Promise<string>;
}

let server: TestServer;
let sql: pg.Client;
const sent: Sent[] = [];

beforeAll(async () => {
  server = await startTestServer();
  sql = new pg.Client({ connectionString: server.database.url });
  await sql.connect();
  server.hangar.runtime.streaming.bus.addRemote((message) => {
    if (message.kind === "end") return void sent.push({ message });
    const { runId, seq } = message.event;
    sent.push({
      message,
      storedWhenSent: sql.query("SELECT 1 FROM run_events WHERE run_id = $1 AND seq = $2", [runId, seq]).then((result) => result.rowCount === 1),
      runStatusWhenSent: sql.query<{ status: string }>("SELECT status FROM runs WHERE run_id = $1", [runId]).then((result) => result.rows[0]!.status),
    });
  });
});
afterAll(async () => {
  await sql?.end();
  await server?.close();
});

/** What was sent to other processes about one run, each event with what the database held then. */
async function sentAbout(runId: string) {
  const mine = sent.filter(({ message }) => (message.kind === "end" ? message.runId : message.event.runId) === runId);
  return Promise.all(
    mine.map(async ({ message, storedWhenSent, runStatusWhenSent }) => ({
      kind: message.kind,
      seq: message.kind === "event" ? message.event.seq : undefined,
      event: message.kind === "event" ? message.event.event : undefined,
      stored: await storedWhenSent,
      runStatus: await runStatusWhenSent,
    })),
  );
}

async function storedSeqs(runId: string): Promise<number[]> {
  const result = await sql.query<{ seq: number }>("SELECT seq FROM run_events WHERE run_id = $1 ORDER BY seq", [runId]);
  return result.rows.map((row) => row.seq);
}

describe("run events sent to other processes", () => {
  it("are each stored before they are sent, all of them, in order, and the run's end comes last", async () => {
    const thread = await server.client.threads.create();
    const run = await server.client.runs.create(thread.thread_id, "slow", {
      input: { messages: [{ role: "user", content: "hi" }] },
      context: { step_ms: 30 },
      streamMode: ["values", "updates"],
    } as never);
    await server.client.runs.join(thread.thread_id, run.run_id);
    const told = await sentAbout(run.run_id);
    const events = told.filter((item) => item.kind === "event");
    expect(events.length).toBeGreaterThan(3);
    expect(events.every((item) => item.stored)).toBe(true);
    expect(events.map((item) => item.seq)).toEqual(await storedSeqs(run.run_id));
    expect(told.at(-1)?.kind).toBe("end");
  });

  it("are sent from a run's interrupt on only once its outcome is recorded (held events)", async () => {
    const thread = await server.client.threads.create();
    const run = await server.client.runs.create(thread.thread_id, "interrupting", { input: {}, streamMode: ["updates"] });
    await server.client.runs.join(thread.thread_id, run.run_id);
    const told = await sentAbout(run.run_id);
    const events = told.filter((item) => item.kind === "event");
    expect(events.every((item) => item.stored)).toBe(true);
    expect(events.map((item) => item.seq)).toEqual(await storedSeqs(run.run_id));
    const interruptUpdate = events.find((item) => item.event === "updates");
    // Recorded: the run ended (a run stopped by interrupt() ends as a success; its thread is interrupted).
    expect(interruptUpdate?.runStatus).toBe("success");
    expect(told.at(-1)?.kind).toBe("end");
  });
});
