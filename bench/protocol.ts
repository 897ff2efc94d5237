/**
 * Protocol v2 fan-out benchmark (issue 26): events per second delivered, server CPU per delivered
 * event and RSS, for LangGraph streaming protocol v2 over WebSocket against today's SSE thread
 * stream (GET /threads/{id}/stream), in the same server process and run:
 *
 * - one busy thread: BENCH_PROTOCOL_SUBSCRIBERS (100) subscribers of one thread, which runs
 *   BENCH_PROTOCOL_RUNS (10) runs of the `chatty` graph one after another, each writing
 *   BENCH_PROTOCOL_EVENTS (100) custom events;
 * - many threads: BENCH_PROTOCOL_THREADS (1000) sockets, each on its own thread, one run of
 *   BENCH_PROTOCOL_THREAD_EVENTS (20) custom events per thread, all started together.
 *
 * Runs are created with stream mode `custom` only, so both paths carry the same stored events;
 * protocol sockets subscribe to the `custom` channel. A phase ends when every subscriber has all
 * its custom events; CPU is the server process's over the phase.
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import {
  CpuMeter,
  RESULTS_DIR,
  RssSampler,
  createBenchDatabase,
  envInt,
  printTable,
  repoState,
  round,
  startServerProcess,
  waitForQuietMachine,
  writeResults,
  type ResultRow,
  type ServerProcess,
} from "./bench-kit.js";

const CONFIG = "bench/protocol.langgraph.json";
const SUBSCRIBERS = envInt("BENCH_PROTOCOL_SUBSCRIBERS", 100);
const RUNS = envInt("BENCH_PROTOCOL_RUNS", 10);
const EVENTS = envInt("BENCH_PROTOCOL_EVENTS", 100);
const THREADS = envInt("BENCH_PROTOCOL_THREADS", 1000);
const THREAD_EVENTS = envInt("BENCH_PROTOCOL_THREAD_EVENTS", 20);

type Transport = "protocol-ws" | "sse";

/** A subscriber counting the custom events it receives; `ready` once it is attached. */
interface Subscriber {
  ready: Promise<void>;
  received(): number;
  close(): void;
}

function protocolSubscriber(server: ServerProcess, threadId: string): Subscriber {
  const socket = new WebSocket(`${server.url.replace("http", "ws")}/threads/${threadId}/stream/events`);
  let count = 0;
  const ready = new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.once("open", () => socket.send(JSON.stringify({ id: 1, method: "subscription.subscribe", params: { channels: ["custom"] } })));
    socket.on("message", (data) => {
      const text = data.toString();
      // Counting without parsing every frame: the client's CPU is not what is measured.
      if (text.startsWith('{"type":"event","method":"custom"')) count++;
      else if (text.includes('"type":"success"')) resolve();
      else if (text.includes('"type":"error"')) reject(new Error(text));
    });
  });
  return { ready, received: () => count, close: () => socket.close() };
}

function sseSubscriber(server: ServerProcess, threadId: string): Subscriber {
  const abort = new AbortController();
  let count = 0;
  let resolveReady = () => {};
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));
  void (async () => {
    const response = await fetch(`${server.url}/threads/${threadId}/stream`, { signal: abort.signal, headers: { accept: "text/event-stream" } });
    resolveReady();
    const decoder = new TextDecoder();
    let carry = "";
    try {
      for await (const chunk of response.body!) {
        const text = carry + decoder.decode(chunk as Uint8Array, { stream: true });
        const lines = text.split("\n");
        carry = lines.pop() ?? "";
        for (const line of lines) if (line === "event: custom") count++;
      }
    } catch {
      // aborted at the end of the phase
    }
  })();
  return { ready, received: () => count, close: () => abort.abort() };
}

async function untilDelivered(subscribers: Subscriber[], expected: number, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (subscribers.some((subscriber) => subscriber.received() < expected)) {
    if (performance.now() > deadline) {
      const short = subscribers.filter((subscriber) => subscriber.received() < expected).length;
      throw new Error(`${short} subscribers still short of ${expected} events after ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function phase(server: ServerProcess, database: string, name: string, transport: Transport, body: () => Promise<{ subscribers: Subscriber[]; expected: number; start: () => Promise<void> }>): Promise<ResultRow> {
  await waitForQuietMachine();
  const { subscribers, expected, start } = await body();
  await Promise.all(subscribers.map((subscriber) => subscriber.ready));
  const rss = new RssSampler(server);
  rss.start();
  const rssBefore = server.rssMb() ?? 0;
  const cpu = await CpuMeter.start(server, database);
  const serverCpuStart = server.cpuMs();
  const began = performance.now();
  await start();
  await untilDelivered(subscribers, expected, 600_000);
  const seconds = (performance.now() - began) / 1000;
  const delivered = subscribers.reduce((sum, subscriber) => sum + subscriber.received(), 0);
  const serverCpuMs = server.cpuMs() - serverCpuStart;
  const usage = await cpu.stop(delivered);
  const memory = rss.stop();
  for (const subscriber of subscribers) subscriber.close();
  return {
    scenario: name,
    transport,
    subscribers: subscribers.length,
    delivered_events: delivered,
    events_per_s: Math.round(delivered / seconds),
    server_cpu_us_per_event: round((serverCpuMs * 1000) / delivered, 1),
    postgres_cpu_us_per_event: round(usage.postgres_cpu_ms_per_op * 1000, 1),
    server_cpu_cores: usage.server_cpu_cores,
    rss_before_mb: round(rssBefore, 0),
    rss_max_mb: round(memory.rss_max_mb, 0),
    seconds: round(seconds, 2),
    machine_busy_pct: usage.machine_busy_pct,
  };
}

const subscriberOf = (transport: Transport) => (transport === "sse" ? sseSubscriber : protocolSubscriber);

export async function protocolSuite(stamp: string): Promise<void> {
  const database = await createBenchDatabase("protocol");
  const server = await startServerProcess({ configPath: CONFIG, databaseUrl: database.url, logPath: path.join(RESULTS_DIR, `protocol-server-${stamp}.log`) });
  const client = server.client(64);
  const rows: ResultRow[] = [];
  try {
    // Warm-up: the graph loaded, both paths' code run once.
    const warm = await client.threads.create();
    await client.runs.wait(warm.thread_id, "chatty", { input: { done: 0 }, context: { events: 10 } } as never);

    for (const transport of ["sse", "protocol-ws", "sse", "protocol-ws"] as const) {
      rows.push(
        await phase(server, database.name, "one busy thread", transport, async () => {
          const thread = await client.threads.create();
          const subscribers = Array.from({ length: SUBSCRIBERS }, () => subscriberOf(transport)(server, thread.thread_id));
          return {
            subscribers,
            expected: RUNS * EVENTS,
            start: async () => {
              for (let run = 0; run < RUNS; run++) {
                await client.runs.create(thread.thread_id, "chatty", { input: { done: 0 }, context: { events: EVENTS } as never, streamMode: ["custom"], multitaskStrategy: "enqueue" });
              }
            },
          };
        }),
      );
      console.log(JSON.stringify(rows.at(-1)));
    }
    for (const transport of ["sse", "protocol-ws"] as const) {
      rows.push(
        await phase(server, database.name, `${THREADS} threads`, transport, async () => {
          const threads: Array<{ thread_id: string }> = [];
          for (let index = 0; index < THREADS; index += 50) threads.push(...(await Promise.all(Array.from({ length: Math.min(50, THREADS - index) }, () => client.threads.create()))));
          const subscribers: Subscriber[] = [];
          for (let index = 0; index < threads.length; index += 100) {
            const batch = threads.slice(index, index + 100).map((thread) => subscriberOf(transport)(server, thread.thread_id));
            await Promise.all(batch.map((subscriber) => subscriber.ready));
            subscribers.push(...batch);
          }
          return {
            subscribers,
            expected: THREAD_EVENTS,
            start: async () => {
              for (let index = 0; index < threads.length; index += 50) {
                await Promise.all(threads.slice(index, index + 50).map((thread) => client.runs.create(thread.thread_id, "chatty", { input: { done: 0 }, context: { events: THREAD_EVENTS } as never, streamMode: ["custom"] })));
              }
            },
          };
        }),
      );
      console.log(JSON.stringify(rows.at(-1)));
    }
  } finally {
    await server.stop();
    await database.drop();
  }
  printTable("protocol v2 (WebSocket) vs SSE thread stream: delivered custom events", rows, [
    "transport",
    "subscribers",
    "delivered_events",
    "events_per_s",
    "server_cpu_us_per_event",
    "postgres_cpu_us_per_event",
    "server_cpu_cores",
    "rss_before_mb",
    "rss_max_mb",
    "seconds",
    "machine_busy_pct",
  ]);
  const file = writeResults("protocol", stamp, { repo: repoState(), settings: { SUBSCRIBERS, RUNS, EVENTS, THREADS, THREAD_EVENTS }, rows });
  console.log(`results: ${file}`);
}
