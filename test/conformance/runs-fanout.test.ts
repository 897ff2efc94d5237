import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CuttableProxy } from "../helpers/cuttable-proxy.js";
import { startSplitProcesses, startTestServer, type SplitProcesses, type TestServer } from "../helpers/test-server.js";
import { CONDITION_TIMEOUT_MS } from "../helpers/condition-timeout.js";
import { createGates } from "../helpers/gates.js";

const human = (content: string) => ({ messages: [{ role: "user", content }] });

let processes: SplitProcesses;
let executing: TestServer;
let apiOnly: TestServer;

let gates: Awaited<ReturnType<typeof createGates>>;

beforeAll(async () => {
  gates = await createGates();
  processes = await startSplitProcesses();
  ({ executing, apiOnly } = processes);
});
afterAll(async () => {
  await processes?.close();
  await gates?.removeAll();
});

describe("event fan-out between processes through Redis", () => {
  it("streams, on a process without a worker, the live events of a run executed by another process", async () => {
    const thread = await apiOnly.client.threads.create();
    const third = gates.gate();
    const events: string[] = [];
    try {
      for await (const part of apiOnly.client.runs.stream(thread.thread_id, "slow", {
        input: human("across"),
        streamMode: "updates",
        context: { step_ms: 10, gate_file: third.file },
      })) {
        events.push(part.event);
        // Live, not replayed at the end: the second node's update arrived while the third waits at its gate.
        if (events.length === 3) await third.open();
      }
    } finally {
      await third.open();
    }
    expect(events).toEqual(["metadata", "updates", "updates", "updates"]);
    expect(apiOnly.hangar.worker).toBeNull();
  });

  it("joins on one process a run that another process executes", async () => {
    const thread = await executing.client.threads.create();
    const run = await executing.client.runs.create(thread.thread_id, "slow", { input: human("join"), context: { step_ms: 50 } });
    const values = await apiOnly.client.runs.join(thread.thread_id, run.run_id);
    expect((values as { messages: unknown[] }).messages).toHaveLength(4);
  });
});

describe("event fan-out after Redis drops and comes back", () => {
  let proxy: CuttableProxy;
  let behindProxy: TestServer;
  beforeAll(async () => {
    const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
    const redis = new URL(redisUrl);
    proxy = new CuttableProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    await proxy.listen();
    behindProxy = await startTestServer({ database: processes.database, env: { REDIS_URL: proxy.proxiedUrl(redisUrl) }, roles: { api: true, worker: false, cron: false } });
  });
  afterAll(async () => {
    await proxy?.restore();
    await behindProxy?.close();
    await proxy?.close();
  });

  it("resubscribes: live events reach a process whose Redis connection was cut and restored", async () => {
    await proxy.cut("reset");
    await proxy.restore();
    // Live again once the subscriber has reconnected and resubscribed (within seconds): until then
    // an attempt hears nothing while its run waits at the gate, and is given up after a while.
    await vi.waitFor(
      async () => {
        const thread = await behindProxy.client.threads.create();
        const third = gates.gate();
        const updates: unknown[] = [];
        const stream = behindProxy.client.runs.stream(thread.thread_id, "slow", {
          input: human("after the cut"),
          streamMode: "updates",
          context: { step_ms: 10, gate_file: third.file },
        });
        const reading = (async () => {
          for await (const part of stream) if (part.event === "updates") updates.push(part.data);
        })();
        try {
          await vi.waitFor(() => expect(updates).toHaveLength(2), { timeout: 2_000 });
        } finally {
          await third.open();
          await reading;
        }
        expect(updates).toHaveLength(3);
      },
      { timeout: CONDITION_TIMEOUT_MS, interval: 200 },
    );
  });
});

describe("streams between processes without Redis", () => {
  let withoutRedis: SplitProcesses;
  let api: TestServer;
  beforeAll(async () => {
    withoutRedis = await startSplitProcesses({ redis: false });
    api = withoutRedis.apiOnly;
  });
  afterAll(async () => {
    await withoutRedis?.close();
  });

  it("still end, with every event the run stored, when the run ends on another process", async () => {
    const thread = await api.client.threads.create();
    const events = [];
    for await (const part of api.client.runs.stream(thread.thread_id, "slow", {
      input: human("no redis"),
      streamMode: "updates",
      context: { step_ms: 30 },
    })) {
      events.push(part);
    }
    // Not live (the events reach this process only through the database), but complete.
    expect(events.map((event) => event.event)).toEqual(["metadata", "updates", "updates", "updates"]);
    expect(Object.keys(events[3]!.data as object)).toEqual(["third"]);
  });
});
