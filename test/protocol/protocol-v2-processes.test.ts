import { randomUUID } from "node:crypto";
import { print } from "graphql";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { ThreadEventsDocument, type ThreadEventFieldsFragment } from "../graphql/generated/graphql.js";
import { graphqlWebSocketUrl } from "../graphql/helpers.js";
import { startSplitProcesses, type SplitProcesses, type TestServer } from "../helpers/test-server.js";

// Protocol v2 streams read Hangar's stored run events, announced across processes by Redis (as
// run streams are): an SDK thread stream on a process without a worker follows a run that
// another process executes, live; so does GraphQL's threadEvents, built on the same stream.
const human = (content: string) => ({ messages: [{ role: "user", content }] });

let processes: SplitProcesses;
let apiOnly: TestServer;

beforeAll(async () => {
  processes = await startSplitProcesses();
  ({ apiOnly } = processes);
});
afterAll(async () => {
  await processes?.close();
});

describe("protocol v2 across processes", () => {
  for (const transport of ["sse", "websocket"] as const) {
    it(`streams over ${transport}, live, a run that another process executes`, async () => {
      const thread = apiOnly.client.threads.stream({ assistantId: "slow", transport });
      const arrivals: number[] = [];
      try {
        await thread.run.start({ input: human("across"), context: { step_ms: 150 } } as never);
        const started = Date.now();
        for await (const _values of thread.values) arrivals.push(Date.now() - started);
        const output = (await thread.output) as { messages: unknown[] };
        expect(output.messages).toHaveLength(4);
      } finally {
        await thread.close();
      }
      expect(apiOnly.hangar.worker).toBeNull();
      // Live: the states arrived spread over the run's three 150 ms steps, not all at its end.
      expect(arrivals.length).toBeGreaterThanOrEqual(3);
      expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThan(200);
    });
  }

  it("streams, live, the run another process executes through GraphQL threadEvents", async () => {
    const threadId = randomUUID();
    await apiOnly.client.threads.create({ threadId });
    const bus = apiOnly.hangar.runtime.streaming.bus;
    const listening = vi.spyOn(bus, "subscribeThread");
    const client = createClient({ url: graphqlWebSocketUrl(apiOnly), webSocketImpl: WebSocket, retryAttempts: 0 });
    const arrivals: Array<{ event: ThreadEventFieldsFragment; at: number }> = [];
    try {
      const reading = (async () => {
        const query = print(ThreadEventsDocument);
        for await (const result of client.iterate({ query, variables: { threadId, channels: ["values", "lifecycle"] } })) {
          const event = (result.data as { threadEvents: ThreadEventFieldsFragment }).threadEvents;
          arrivals.push({ event, at: Date.now() });
          if (event.method === "lifecycle" && (event.data as { event: string }).event === "completed") return;
        }
      })();
      // Subscribed before the run exists: what follows arrives live, not replayed.
      await vi.waitFor(() => expect(listening).toHaveBeenCalled(), { timeout: 20_000 });
      const run = await apiOnly.client.runs.create(threadId, "slow", { input: human("across"), context: { step_ms: 150 } } as never);
      await reading;
      expect(arrivals.map(({ event }) => event.method)).toEqual(["lifecycle", "values", "values", "values", "values", "lifecycle"]);
      expect(new Set(arrivals.map(({ event }) => event.runId))).toEqual(new Set([run.run_id]));
      const values = arrivals.filter(({ event }) => event.method === "values");
      expect(values.at(-1)!.at - values[0]!.at).toBeGreaterThan(200);
    } finally {
      listening.mockRestore();
      await client.dispose();
    }
  });
});
