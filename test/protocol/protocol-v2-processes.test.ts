import { randomUUID } from "node:crypto";
import { print } from "graphql";
import pg from "pg";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { ThreadEventsDocument, type ThreadEventFieldsFragment } from "../graphql/generated/graphql.js";
import { graphqlWebSocketUrl } from "../graphql/helpers.js";
import { startSplitProcesses, type SplitProcesses, type TestServer } from "../helpers/test-server.js";
import { CONDITION_TIMEOUT_MS } from "../helpers/condition-timeout.js";
import { createGates } from "../helpers/gates.js";

// Protocol v2 streams read Hangar's stored run events, announced across processes by Redis (as
// run streams are): an SDK thread stream on a process without a worker follows a run that
// another process executes, live; so does GraphQL's threadEvents, built on the same stream.
const human = (content: string) => ({ messages: [{ role: "user", content }] });

let processes: SplitProcesses;
let apiOnly: TestServer;
let gates: Awaited<ReturnType<typeof createGates>>;

beforeAll(async () => {
  gates = await createGates();
  processes = await startSplitProcesses();
  ({ apiOnly } = processes);
});
afterAll(async () => {
  await processes?.close();
  await gates?.removeAll();
});

describe("protocol v2 across processes", () => {
  for (const transport of ["sse", "websocket"] as const) {
    it(`streams over ${transport}, live, a run that another process executes`, async () => {
      const thread = apiOnly.client.threads.stream({ assistantId: "slow", transport });
      const third = gates.gate();
      const arrivals: Array<{ messages: unknown[] }> = [];
      try {
        await thread.run.start({ input: human("across"), context: { step_ms: 10, gate_file: third.file } } as never);
        const reading = (async () => {
          for await (const values of thread.values) arrivals.push(values as { messages: unknown[] });
        })();
        // Live: the state after the second node arrives while the third waits at its gate.
        await vi.waitFor(() => expect(arrivals.at(-1)?.messages).toHaveLength(3), { timeout: CONDITION_TIMEOUT_MS });
        await third.open();
        await reading;
        const output = (await thread.output) as { messages: unknown[] };
        expect(output.messages).toHaveLength(4);
        expect(arrivals.length).toBeGreaterThanOrEqual(3);
        expect(arrivals.at(-1)?.messages).toHaveLength(4);
      } finally {
        await third.open();
        await thread.close();
      }
      expect(apiOnly.hangar.worker).toBeNull();
    });
  }

  // A loaded database may store the executing process's events seconds after it announced them
  // (here: a lock on run_events held past 5 s, the patience the reader had before). The reader
  // keeps looking until they are stored: the run waits at its gate and announces nothing more.
  it("streams states whose storing was delayed past 5 s, while the run still waits", async () => {
    const locker = new pg.Client({ connectionString: processes.database.url });
    await locker.connect();
    const thread = apiOnly.client.threads.stream({ assistantId: "slow", transport: "sse" });
    const third = gates.gate();
    const arrivals: Array<{ messages: unknown[] }> = [];
    try {
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE run_events IN SHARE MODE");
      await thread.run.start({ input: human("delayed"), context: { step_ms: 10, gate_file: third.file } } as never);
      const reading = (async () => {
        for await (const values of thread.values) arrivals.push(values as { messages: unknown[] });
      })();
      // The executing process's insert is waiting for the lock; hold it past the old patience.
      await vi.waitFor(
        async () => {
          const waiting = await locker.query("SELECT 1 FROM pg_locks WHERE relation = 'run_events'::regclass AND NOT granted");
          expect(waiting.rowCount).toBeGreaterThan(0);
        },
        { timeout: CONDITION_TIMEOUT_MS },
      );
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(arrivals).toHaveLength(0);
      await locker.query("COMMIT");
      await vi.waitFor(() => expect(arrivals.at(-1)?.messages).toHaveLength(3), { timeout: CONDITION_TIMEOUT_MS });
      await third.open();
      await reading;
      expect(arrivals.at(-1)?.messages).toHaveLength(4);
    } finally {
      await locker.query("ROLLBACK").catch(() => undefined);
      await locker.end();
      await third.open();
      await thread.close();
    }
  });

  it("streams, live, the run another process executes through GraphQL threadEvents", async () => {
    const threadId = randomUUID();
    await apiOnly.client.threads.create({ threadId });
    const bus = apiOnly.hangar.runtime.streaming.bus;
    const listening = vi.spyOn(bus, "subscribeThread");
    const client = createClient({ url: graphqlWebSocketUrl(apiOnly), webSocketImpl: WebSocket, retryAttempts: 0 });
    const third = gates.gate();
    const arrivals: ThreadEventFieldsFragment[] = [];
    try {
      const reading = (async () => {
        const query = print(ThreadEventsDocument);
        for await (const result of client.iterate({ query, variables: { threadId, channels: ["values", "lifecycle"] } })) {
          const event = (result.data as { threadEvents: ThreadEventFieldsFragment }).threadEvents;
          arrivals.push(event);
          if (event.method === "lifecycle" && (event.data as { event: string }).event === "completed") return;
        }
      })();
      // Subscribed before the run exists: what follows arrives live, not replayed.
      await vi.waitFor(() => expect(listening).toHaveBeenCalled(), { timeout: CONDITION_TIMEOUT_MS });
      const run = await apiOnly.client.runs.create(threadId, "slow", { input: human("across"), context: { step_ms: 10, gate_file: third.file } } as never);
      // Live: the run's start and its first three states arrive while its last node waits at the gate.
      await vi.waitFor(() => expect(arrivals.map((event) => event.method)).toEqual(["lifecycle", "values", "values", "values"]), { timeout: CONDITION_TIMEOUT_MS });
      await third.open();
      await reading;
      expect(arrivals.map((event) => event.method)).toEqual(["lifecycle", "values", "values", "values", "values", "lifecycle"]);
      expect(new Set(arrivals.map((event) => event.runId))).toEqual(new Set([run.run_id]));
    } finally {
      await third.open();
      listening.mockRestore();
      await client.dispose();
    }
  });
});
