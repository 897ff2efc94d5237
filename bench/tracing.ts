/**
 * `npm run bench:tracing`: trace ingestion throughput. Starts a real Hangar on PostgreSQL
 * (DATABASE_URL's server, a fresh database), sends BENCH_TRACE_RUNS LLM runs (OpenAI chat format
 * with usage, streamed-token events and LangChain metadata) through POST /tracing/runs/batch and
 * through POST /tracing/runs/multipart in batches of BENCH_TRACE_BATCH with BENCH_TRACE_CONCURRENCY
 * requests in flight, then inserts the very rows the server stored (through /runs/batch) into the
 * same table with plain multi-row INSERTs over pg: the floor no ingestion path can beat. Every
 * scenario starts on an empty table. Prints one JSON line per scenario with runs/s and the ratio
 * to that floor.
 *
 * The same LLM calls are also sent as OpenTelemetry spans (GenAI semantic conventions, made by
 * the OpenTelemetry SDK and serialized by its official protobuf serializer) to POST
 * /otel/v1/traces. Each scenario reports the process CPU per run or span (server and the fetch
 * client share this process; the client's share is alike for both paths).
 *
 * Request bodies are built before the clock starts, so the numbers measure the server, not the
 * payload generator that shares its process.
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import pg from "pg";
import { loadConfig } from "../src/config.js";
import { createLogger } from "../src/logger.js";
import { startHangar } from "../src/main.js";

const RUNS = Number(process.env.BENCH_TRACE_RUNS ?? 50_000);
const BATCH = Number(process.env.BENCH_TRACE_BATCH ?? 500);
const CONCURRENCY = Number(process.env.BENCH_TRACE_CONCURRENCY ?? 4);
const baseUrl = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
const JSONB_OID = 3802;

async function withAdmin(sql: string) {
  const admin = new pg.Client({ connectionString: baseUrl.toString() });
  await admin.connect();
  await admin.query(sql);
  await admin.end();
}

/** One LLM run as the langsmith SDK posts it for a LangChain ChatOpenAI call. */
function llmRun(index: number, startMs: number) {
  const id = randomUUID();
  const start = new Date(startMs).toISOString().replace("Z", "123Z");
  const question = `Question ${index}: summarize the quarterly report for region ${index % 17} in three bullet points.`;
  const answer = `- Revenue grew ${index % 9}% quarter over quarter.\n- Costs were flat.\n- Outlook unchanged for region ${index % 17}.`;
  return {
    id,
    trace_id: id,
    dotted_order: `${start.replace(/[-:.]/g, "")}${id}`,
    name: "ChatOpenAI",
    run_type: "llm",
    start_time: start,
    end_time: new Date(startMs + 850).toISOString(),
    session_name: "bench",
    tags: ["bench"],
    serialized: { lc: 1, type: "constructor", id: ["langchain", "chat_models", "openai", "ChatOpenAI"] },
    inputs: {
      model: "gpt-4o-mini",
      temperature: 0.2,
      messages: [
        { role: "system", content: "You are a concise financial analyst. Answer in bullet points." },
        { role: "user", content: question },
      ],
    },
    outputs: {
      id: `chatcmpl-${index}`,
      object: "chat.completion",
      model: "gpt-4o-mini-2024-07-18",
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: answer } }],
      usage: { prompt_tokens: 41, completion_tokens: 38, total_tokens: 79, prompt_tokens_details: { cached_tokens: 0 } },
    },
    extra: {
      invocation_params: { model: "gpt-4o-mini", temperature: 0.2, stream: true },
      metadata: {
        ls_provider: "openai",
        ls_model_name: "gpt-4o-mini",
        ls_model_type: "chat",
        ls_temperature: 0.2,
        thread_id: randomUUID(),
        assistant_id: "f3a1c2d4-0000-4000-8000-00000000000a",
        run_id: randomUUID(),
        langgraph_node: "agent",
      },
      runtime: { sdk: "langsmith-js", sdk_version: "0.12.0", library: "langchain-core", platform: "linux" },
    },
    events: [
      { name: "start", time: start },
      { name: "new_token", time: new Date(startMs + 180).toISOString() },
      { name: "end", time: new Date(startMs + 850).toISOString() },
    ],
  };
}

type WireRun = ReturnType<typeof llmRun>;

function batchBody(runs: WireRun[]) {
  return { body: JSON.stringify({ post: runs }), contentType: "application/json" };
}

/** The SDK's multipart layout: the run without its big fields, then one part per big field. */
function multipartBody(runs: WireRun[]) {
  const boundary = `----LangSmithFormBoundary${randomUUID().slice(0, 8)}`;
  const chunks: string[] = [];
  const part = (name: string, value: unknown) => {
    const data = JSON.stringify(value);
    chunks.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n`);
    chunks.push(`Content-Type: application/json; length=${Buffer.byteLength(data)}\r\n\r\n${data}\r\n`);
  };
  for (const { inputs, outputs, events, extra, serialized, ...main } of runs) {
    part(`post.${main.id}`, main);
    Object.entries({ inputs, outputs, events, extra, serialized }).forEach(([field, value]) => part(`post.${main.id}.${field}`, value));
  }
  chunks.push(`--${boundary}--\r\n`);
  return { body: chunks.join(""), contentType: `multipart/form-data; boundary=${boundary}` };
}

function buildBodies(startMs: number, build: (runs: WireRun[]) => { body: string; contentType: string }, runs = RUNS) {
  const bodies = [];
  for (let offset = 0; offset < runs; offset += BATCH) {
    const count = Math.min(BATCH, runs - offset);
    bodies.push(build(Array.from({ length: count }, (_, i) => llmRun(offset + i, startMs + (offset + i) * 10))));
  }
  return bodies;
}

/** The same LLM calls as GenAI-convention spans, serialized per batch by OpenTelemetry's protobuf serializer. */
function otlpBodies(startMs: number, runs = RUNS): Array<{ body: Uint8Array<ArrayBuffer>; contentType: string }> {
  const recorded = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: recorded })] });
  const tracer = provider.getTracer("bench");
  for (let index = 0; index < runs; index++) {
    const run = llmRun(index, startMs + index * 10);
    const span = tracer.startSpan("chat gpt-4o-mini", {
      startTime: new Date(startMs + index * 10),
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.response.model": run.outputs.model,
        "gen_ai.request.temperature": 0.2,
        "gen_ai.usage.input_tokens": 41,
        "gen_ai.usage.output_tokens": 38,
        "gen_ai.conversation.id": run.extra.metadata.thread_id,
        "gen_ai.system_instructions": JSON.stringify([{ type: "text", content: run.inputs.messages[0].content }]),
        "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: run.inputs.messages[1].content }] }]),
        "gen_ai.output.messages": JSON.stringify([
          { role: "assistant", parts: [{ type: "text", content: run.outputs.choices[0].message.content }], finish_reason: "stop" },
        ]),
      },
    });
    span.end(new Date(startMs + index * 10 + 850));
  }
  const spans: ReadableSpan[] = recorded.getFinishedSpans();
  const bodies = [];
  for (let offset = 0; offset < spans.length; offset += BATCH) {
    // Copied into a Uint8Array of its own ArrayBuffer, which fetch takes as a body.
    const body = new Uint8Array(ProtobufTraceSerializer.serializeRequest(spans.slice(offset, offset + BATCH))!);
    bodies.push({ body, contentType: "application/x-protobuf" });
  }
  return bodies;
}

interface Rate {
  perSecond: number;
  /** Process CPU per run (or span), microseconds. */
  cpuMicros: number;
}

/** Runs the tasks with CONCURRENCY in flight; returns runs/s and CPU per run. */
async function measure(tasks: Array<() => Promise<void>>): Promise<Rate> {
  let next = 0;
  // The payloads were just built (the OTLP ones from SDK spans): their garbage is collected now,
  // not on the clock of whichever scenario runs next (npm run bench:tracing passes --expose-gc).
  (globalThis as { gc?: () => void }).gc?.();
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < tasks.length) await tasks[next++]();
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  return { perSecond: Math.round(RUNS / ((performance.now() - started) / 1000)), cpuMicros: Math.round((cpu.user + cpu.system) / RUNS) };
}

async function sendAll(url: string, bodies: Array<{ body: string | Uint8Array<ArrayBuffer>; contentType: string }>, expectedStatus = 202): Promise<Rate> {
  return measure(
    bodies.map(({ body, contentType }) => async () => {
      const response = await fetch(url, { method: "POST", headers: { "content-type": contentType }, body });
      if (response.status !== expectedStatus) throw new Error(`${url}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    }),
  );
}

/** Bytes per stored run: the trace_runs table with its indexes and TOAST, over its rows. */
async function bytesPerRun(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("VACUUM ANALYZE trace_runs");
    const { rows } = await client.query("SELECT pg_total_relation_size('trace_runs') AS bytes, (SELECT count(*) FROM trace_runs) AS runs");
    return Math.round(Number(rows[0].bytes) / Number(rows[0].runs));
  } finally {
    await client.end();
  }
}

/** The rows the server stored, as pg parameters (jsonb as JSON text), then the table emptied. */
async function takeStoredRows(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const stored = await client.query("SELECT * FROM trace_runs ORDER BY start_time");
    const columns = stored.fields.map((field) => field.name);
    const isJsonb = stored.fields.map((field) => field.dataTypeID === JSONB_OID);
    const rows = stored.rows.map((row) =>
      columns.map((column, i) => (isJsonb[i] && row[column] !== null ? JSON.stringify(row[column]) : row[column])),
    );
    // Every scenario starts from an empty table, so index sizes are alike.
    // (trace_feedback, empty here, refers to trace_runs: truncated with it.)
    await client.query("TRUNCATE trace_runs, trace_feedback");
    return { columns, rows };
  } finally {
    await client.end();
  }
}

/** The floor: the same rows inserted with multi-row INSERT ... VALUES over pg, same batches and concurrency. */
async function plainInsert(databaseUrl: string, { columns, rows }: Awaited<ReturnType<typeof takeStoredRows>>) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: CONCURRENCY });
  // The database is dropped WITH (FORCE) at the end; a connection still closing must not crash.
  pool.on("error", () => undefined);
  try {
    const statements = [];
    for (let offset = 0; offset < rows.length; offset += BATCH) {
      const chunk = rows.slice(offset, offset + BATCH);
      const values = chunk.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(", ")})`);
      statements.push({ text: `INSERT INTO trace_runs (${columns.join(", ")}) VALUES ${values.join(", ")}`, values: chunk.flat() });
    }
    return (await measure(statements.map((statement) => async () => void (await pool.query(statement))))).perSecond;
  } finally {
    await pool.end();
  }
}

async function main() {
  const database = `hangar_bench_tracing_${Date.now()}`;
  await withAdmin(`CREATE DATABASE ${database}`);
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  const config = loadConfig({ DATABASE_URL: url.toString(), PORT: "0", LOG_LEVEL: "error" }, { configPath: "examples/langgraph.json" });
  const hangar = await startHangar(config, createLogger("error"));
  try {
    const report = (scenario: string, rate: Rate | number, floor?: number, extra: Record<string, number> = {}) => {
      const perSecond = typeof rate === "number" ? rate : rate.perSecond;
      console.log(
        JSON.stringify({
          scenario,
          runs: RUNS,
          batch: BATCH,
          concurrency: CONCURRENCY,
          runs_per_second: perSecond,
          ...(typeof rate === "number" ? {} : { cpu_us_per_run: rate.cpuMicros }),
          ...(floor ? { ratio_to_plain_insert: Number((perSecond / floor).toFixed(2)) } : {}),
          ...extra,
          rss_mb: Math.round(process.memoryUsage().rss / 1024 / 1024),
        }),
      );
    };
    // Warm-up of both paths: JIT, connection pool and the price cache.
    await sendAll(`${hangar.url}/tracing/runs/batch`, buildBodies(Date.parse("2024-01-01T00:00:00Z"), batchBody, 4 * BATCH));
    await sendAll(`${hangar.url}/tracing/runs/multipart`, buildBodies(Date.parse("2024-02-01T00:00:00Z"), multipartBody, 4 * BATCH));
    await sendAll(`${hangar.url}/otel/v1/traces`, otlpBodies(Date.parse("2024-03-01T00:00:00Z"), 4 * BATCH), 200);
    await takeStoredRows(url.toString());
    const batchRate = await sendAll(`${hangar.url}/tracing/runs/batch`, buildBodies(Date.parse("2025-01-01T00:00:00Z"), batchBody));
    const batchBytes = await bytesPerRun(url.toString());
    const storedRows = await takeStoredRows(url.toString());
    const otlpRate = await sendAll(`${hangar.url}/otel/v1/traces`, otlpBodies(Date.parse("2025-03-01T00:00:00Z")), 200);
    const otlpBytes = await bytesPerRun(url.toString());
    await takeStoredRows(url.toString());
    const multipartRate = await sendAll(
      `${hangar.url}/tracing/runs/multipart`,
      buildBodies(Date.parse("2025-02-01T00:00:00Z"), multipartBody),
    );
    await takeStoredRows(url.toString());
    const floor = await plainInsert(url.toString(), storedRows);
    report("POST /tracing/runs/batch", batchRate, floor, { stored_bytes_per_run: batchBytes });
    report("POST /tracing/runs/multipart", multipartRate, floor);
    report("POST /otel/v1/traces (OTLP protobuf, GenAI spans)", otlpRate, floor, { stored_bytes_per_run: otlpBytes });
    report("plain multi-row INSERT (pg, same rows)", floor);
  } finally {
    await hangar.close();
    await withAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
