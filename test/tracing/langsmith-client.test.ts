import { gzipSync } from "node:zlib";
import { Client } from "langsmith";
import { RunTree } from "langsmith/run_trees";
import { traceable } from "langsmith/traceable";
import { v4 as uuidv4 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// The official langsmith SDK against /tracing, through each of its ingestion paths.
const API_KEY = "tracing-test-key";
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [API_KEY] });
});

afterAll(async () => {
  await server?.close();
});

/** autoBatchTracing: false makes createRun/updateRun send one request each and await it. */
function sdkClient(options: { autoBatchTracing?: boolean } = {}): Client {
  return new Client({
    apiUrl: `${server.url}/tracing`,
    apiKey: API_KEY,
    autoBatchTracing: options.autoBatchTracing ?? false,
    callerOptions: { maxRetries: 0 },
  });
}

async function readRun(id: string) {
  const response = await server.request(`/tracing/runs/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, any>;
}

describe("langsmith SDK: ingestion into /tracing", () => {
  it("serves the LangSmith info shape", async () => {
    const response = await server.request("/tracing/info");
    expect(await response.json()).toMatchObject({
      license_expiration_time: null,
      batch_ingest_config: { use_multipart_endpoint: true, size_limit: 100 },
      instance_flags: {},
    });
  });

  it("createRun then updateRun store the run with its outputs", async () => {
    const client = sdkClient();
    const id = uuidv4();
    await client.createRun({
      id,
      name: "ChatOpenAI",
      run_type: "llm",
      inputs: { messages: [{ role: "user", content: "hello" }] },
      start_time: Date.parse("2025-03-01T10:00:00Z"),
      project_name: "sdk-tests",
      extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
    });
    await client.updateRun(id, {
      end_time: Date.parse("2025-03-01T10:00:02Z"),
      outputs: { choices: [{ message: { role: "assistant", content: "hi there" } }] },
    });
    const run = await readRun(id);
    expect(run).toMatchObject({
      id,
      trace_id: id,
      name: "ChatOpenAI",
      run_type: "llm",
      session_name: "sdk-tests",
      start_time: "2025-03-01T10:00:00.000000Z",
      end_time: "2025-03-01T10:00:02.000000Z",
      status: "success",
      inputs: { messages: [{ role: "user", content: "hello" }] },
      outputs: { choices: [{ message: { role: "assistant", content: "hi there" } }] },
      model_name: "gpt-4o-mini",
      provider: "openai",
    });
    expect(run.rendered.output_messages).toHaveLength(1);
  });

  it("batchIngestRuns and multipartIngestRuns store posts and patches", async () => {
    const client = sdkClient();
    for (const ingest of ["batchIngestRuns", "multipartIngestRuns"] as const) {
      const id = uuidv4();
      const start = "2025-03-01T11:00:00.123456Z";
      const dottedOrder = `20250301T110000123456Z${id}`;
      await client[ingest]({
        runCreates: [
          { id, trace_id: id, dotted_order: dottedOrder, name: ingest, run_type: "chain", start_time: start, inputs: { q: 1 } },
        ],
      });
      await client[ingest]({
        runUpdates: [{ id, trace_id: id, dotted_order: dottedOrder, end_time: "2025-03-01T11:00:01.5Z", outputs: { a: 2 } }],
      });
      expect(await readRun(id), ingest).toMatchObject({
        id,
        name: ingest,
        start_time: start,
        end_time: "2025-03-01T11:00:01.500000Z",
        inputs: { q: 1 },
        outputs: { a: 2 },
        dotted_order: dottedOrder,
      });
    }
  });

  it("keeps a multipart batch whose payload the SDK could not serialize (a cycle next to a BigInt)", async () => {
    const client = sdkClient();
    const [kept, marked] = [uuidv4(), uuidv4()];
    const live: Record<string, unknown> = { maxTokens: 4096n };
    live.self = live;
    await client.multipartIngestRuns({
      runCreates: [
        { id: kept, trace_id: kept, dotted_order: `20250301T120000000000Z${kept}`, name: "kept", run_type: "chain", inputs: { q: 1 } },
        { id: marked, trace_id: marked, dotted_order: `20250301T120000000000Z${marked}`, name: "marked", run_type: "chain", inputs: { client: live } },
      ],
    });
    expect(await readRun(kept)).toMatchObject({ name: "kept", inputs: { q: 1 } });
    // The SDK sent the text it uses for such payloads; the run keeps its other fields.
    expect(await readRun(marked)).toMatchObject({ name: "marked", inputs: "[unable to serialize, circular reference is too complex to analyze]" });
  });

  it("records multipart attachments by name, type and size", async () => {
    const client = sdkClient();
    const id = uuidv4();
    await client.multipartIngestRuns({
      runCreates: [
        {
          id,
          trace_id: id,
          dotted_order: `20250301T120000000001Z${id}`,
          name: "with-file",
          run_type: "llm",
          start_time: "2025-03-01T12:00:00.000001Z",
          inputs: { messages: [{ role: "user", content: "see image" }] },
          attachments: { photo: ["image/png", new Uint8Array([137, 80, 78, 71])] },
        },
      ],
    });
    const run = await readRun(id);
    expect(run.attachments).toEqual({ photo: { content_type: "image/png", size_bytes: 4 } });
    expect(run.warnings.join(" ")).toContain("attachment contents are not stored");
  });

  it("accepts a gzip-compressed multipart body", async () => {
    const id = uuidv4();
    const boundary = "gz-boundary";
    const run = JSON.stringify({ id, name: "gzipped", run_type: "chain", start_time: "2025-03-01T13:00:00Z" });
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="post.${id}"\r\nContent-Type: application/json\r\n\r\n${run}\r\n--${boundary}--\r\n`;
    const response = await server.request("/tracing/runs/multipart", {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}`, "content-encoding": "gzip" },
      body: new Uint8Array(gzipSync(body)),
    });
    expect(response.status).toBe(202);
    expect(await readRun(id)).toMatchObject({ name: "gzipped" });
  });

  it("RunTree postRun/patchRun with children reads back as a tree", async () => {
    const client = sdkClient();
    const root = new RunTree({ name: "agent", run_type: "chain", inputs: { question: "2+2?" }, client, project_name: "trees" });
    await root.postRun();
    const llm = root.createChild({ name: "model", run_type: "llm", inputs: { messages: [{ role: "user", content: "2+2?" }] } });
    await llm.postRun();
    const tool = llm.createChild({ name: "calculator", run_type: "tool", inputs: { expression: "2+2" } });
    await tool.postRun();
    await tool.end({ result: 4 });
    await tool.patchRun();
    await llm.end({ role: "assistant", content: "4" });
    await llm.patchRun();
    await root.end({ answer: "4" });
    await root.patchRun();

    const stored = await readRun(root.id);
    expect(stored).toMatchObject({ trace_id: root.id, parent_run_id: null, child_run_ids: [llm.id], outputs: { answer: "4" } });
    expect(stored.dotted_order).toBe(root.dotted_order);
    const child = await readRun(llm.id);
    expect(child).toMatchObject({ trace_id: root.id, parent_run_id: root.id, child_run_ids: [tool.id], parent_run_ids: [root.id] });
    expect(child.dotted_order).toBe(llm.dotted_order);
    expect(child.dotted_order.startsWith(`${root.dotted_order}.`)).toBe(true);
    const grandchild = await readRun(tool.id);
    expect(grandchild).toMatchObject({ trace_id: root.id, parent_run_id: llm.id, outputs: { result: 4 } });
    // The microseconds the SDK encodes survive the round trip (RunTree pads the execution order there).
    expect(grandchild.start_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(grandchild.dotted_order.split(".").at(-1)).toBe(`${grandchild.start_time.replace(/[-:.]/g, "")}${tool.id}`);
  });

  it("traceable with run_type llm goes through the batching queue (multipart) and is priced", async () => {
    const client = sdkClient({ autoBatchTracing: true });
    let runId: string | undefined;
    const chat = traceable(
      async (messages: Array<{ role: string; content: string }>) => ({
        role: "assistant",
        content: `echo: ${messages[0].content}`,
        usage_metadata: { input_tokens: 1000, output_tokens: 500, total_tokens: 1500 },
      }),
      {
        name: "chat",
        run_type: "llm",
        client,
        tracingEnabled: true,
        project_name: "traceable",
        metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" },
        on_end: (runTree) => {
          runId = runTree.id;
        },
      },
    );
    await chat([{ role: "user", content: "hi" }]);
    await client.awaitPendingTraceBatches();
    const run = await readRun(runId!);
    expect(run).toMatchObject({
      run_type: "llm",
      model_name: "gpt-4o-mini",
      prompt_tokens: 1000,
      completion_tokens: 500,
      total_tokens: 1500,
      prompt_cost: 0.00015,
      completion_cost: 0.0003,
      total_cost: 0.00045,
      tokens_estimated: false,
    });
  });

  it("refuses the SDK without the API key", async () => {
    const response = await fetch(`${server.url}/tracing/runs/batch`, { method: "POST", body: "{}" });
    expect(response.status).toBe(401);
  });
});
