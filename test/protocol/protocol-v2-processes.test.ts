import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSplitProcesses, type SplitProcesses, type TestServer } from "../helpers/test-server.js";

// Protocol v2 streams read Hangar's stored run events, announced across processes by Redis (as
// run streams are): an SDK thread stream on a process without a worker follows a run that
// another process executes, live.
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
});
