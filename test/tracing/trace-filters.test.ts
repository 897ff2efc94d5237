import { Client } from "langsmith";
import { RunTree } from "langsmith/run_trees";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FilterTracesDocument, TraceProgressDocument, type FilterTracesQueryVariables } from "../graphql/generated/graphql.js";
import { errorCode, executeOk, executeOperation } from "../graphql/helpers.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Trace searches by tag, metadata and feedback, time to first token and interrupted graph runs,
// on traces the official langsmith client sends (GraphQL, and LangSmith's filter language on REST).
const API_KEY = "trace-filters-key";
let server: TestServer;
let client: Client;
const SUITE = "trace-filters";
const ids = { chat: "", chatLlm: "", batch: "", batchLlm: "", graph: "", graphNode: "" };
const at = (iso: string) => Date.parse(iso);

/**
 * - chat (tags prod, chat; ticket "4711"): a streamed LLM call starting 100 ms in, whose first
 *   token comes 250 ms after its start; judged helpful (0.9);
 * - batch (tag batch; ticket 4711 as a number): an LLM call without streaming; judged 0.2;
 * - approval: a graph run whose node stopped in interrupt() (the root itself ended well, as
 *   LangGraph ends it).
 */
async function ingestFixture(): Promise<void> {
  const chat = new RunTree({
    name: "chat",
    run_type: "chain",
    inputs: { q: "hi" },
    client,
    start_time: at("2025-08-01T10:00:00.000Z"),
    tags: ["prod", "chat"],
    metadata: { suite: SUITE, ticket: "4711" },
  });
  await chat.postRun();
  const chatLlm = chat.createChild({ name: "ChatOpenAI", run_type: "llm", start_time: at("2025-08-01T10:00:00.100Z"), inputs: { messages: [] } });
  chatLlm.addEvent({ name: "new_token", time: "2025-08-01T10:00:00.350000Z", kwargs: { token: "He" } });
  chatLlm.addEvent({ name: "new_token", time: "2025-08-01T10:00:00.500000Z", kwargs: { token: "llo" } });
  await chatLlm.postRun();
  await chatLlm.end({ role: "assistant", content: "Hello" }, undefined, at("2025-08-01T10:00:00.600Z"));
  await chatLlm.patchRun();
  await chat.end({ answer: "Hello" }, undefined, at("2025-08-01T10:00:00.700Z"));
  await chat.patchRun();

  const batch = new RunTree({
    name: "batch",
    run_type: "chain",
    inputs: {},
    client,
    start_time: at("2025-08-01T11:00:00Z"),
    tags: ["batch"],
    metadata: { suite: SUITE, ticket: 4711 },
  });
  await batch.postRun();
  const batchLlm = batch.createChild({ name: "ChatOpenAI", run_type: "llm", start_time: at("2025-08-01T11:00:00.100Z"), inputs: { messages: [] } });
  await batchLlm.postRun();
  await batchLlm.end({ role: "assistant", content: "done" }, undefined, at("2025-08-01T11:00:01Z"));
  await batchLlm.patchRun();
  await batch.end({}, undefined, at("2025-08-01T11:00:02Z"));
  await batch.patchRun();

  const graph = new RunTree({ name: "approval", run_type: "chain", inputs: {}, client, start_time: at("2025-08-01T12:00:00Z"), metadata: { suite: SUITE } });
  await graph.postRun();
  const node = graph.createChild({ name: "review", run_type: "chain", start_time: at("2025-08-01T12:00:00.100Z"), inputs: {} });
  await node.postRun();
  await node.end(undefined, '[{"value": "Send it?"}]\n\nGraphInterrupt: [{"value": "Send it?"}]\n    at interrupt (file:///x.js:1:1)');
  await node.patchRun();
  await graph.end({ draft: "..." }, undefined, at("2025-08-01T12:00:01Z"));
  await graph.patchRun();

  Object.assign(ids, { chat: chat.id, chatLlm: chatLlm.id, batch: batch.id, batchLlm: batchLlm.id, graph: graph.id, graphNode: node.id });
  await client.createFeedback(chatLlm.id, "helpfulness", { score: 0.9, traceId: chat.id });
  await client.createFeedback(batchLlm.id, "helpfulness", { score: 0.2, traceId: batch.id });
}

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [API_KEY] });
  client = new Client({ apiUrl: `${server.url}/tracing`, apiKey: API_KEY, autoBatchTracing: false, callerOptions: { maxRetries: 0 } });
  await ingestFixture();
});

afterAll(async () => {
  await server?.close();
});

async function names(variables: Omit<FilterTracesQueryVariables, "metadata"> = {}): Promise<string[]> {
  const answer = await executeOk(server, FilterTracesDocument, { metadata: { suite: SUITE }, ...variables });
  expect(answer.traces.totalCount).toBe(answer.traces.edges.length);
  return answer.traces.edges.map((edge) => edge.node.name ?? "").sort();
}

describe("GraphQL traces(...) filters", () => {
  it("by tags: all of them, or any of them", async () => {
    expect(await names({ tags: ["prod", "chat"] })).toEqual(["chat"]);
    expect(await names({ tags: ["prod", "batch"] })).toEqual([]);
    expect(await names({ tagsAny: ["chat", "batch"] })).toEqual(["batch", "chat"]);
    expect(await names({ tagsAny: ["nightly"] })).toEqual([]);
    expect(await names({ tags: [] })).toEqual(["approval", "batch", "chat"]);
  });

  it("by metadata alternatives, as the console's key=value search sends them", async () => {
    expect(await names({ metadataAnyOf: [{ ticket: "4711" }, { ticket: 4711 }] })).toEqual(["batch", "chat"]);
    expect(await names({ metadataAnyOf: [{ ticket: "4711" }] })).toEqual(["chat"]);
    const none = await executeOperation(server, FilterTracesDocument, { metadataAnyOf: [] });
    expect(errorCode(none)).toBe("INVALID_INPUT");
    expect(none.errors?.[0]?.message).toContain("metadataAnyOf");
  });

  it("by feedback key and score range, on any run of the trace", async () => {
    expect(await names({ feedback: { key: "helpfulness" } })).toEqual(["batch", "chat"]);
    expect(await names({ feedback: { key: "helpfulness", scoreMin: 0.5 } })).toEqual(["chat"]);
    expect(await names({ feedback: { key: "helpfulness", scoreMax: 0.5 } })).toEqual(["batch"]);
    expect(await names({ feedback: { key: "correctness" } })).toEqual([]);
    expect(await names({ tagsAny: ["batch", "chat"], feedback: { key: "helpfulness", scoreMin: 0.5 } })).toEqual(["chat"]);
  });
});

describe("time to first token", () => {
  it("per LLM call from its new_token events, and per trace from the root's start", async () => {
    const chat = await executeOk(server, TraceProgressDocument, { traceId: ids.chat });
    const byId = new Map(chat.trace.runs.edges.map((edge) => [edge.node.traceRunId, edge.node]));
    expect(byId.get(ids.chatLlm)?.timeToFirstTokenMs).toBeCloseTo(250, 1);
    expect(chat.trace.timeToFirstTokenMs).toBeCloseTo(350, 1);
    expect(chat.trace.root?.timeToFirstTokenMs).toBeCloseTo(350, 1);

    const listed = await executeOk(server, FilterTracesDocument, { metadata: { suite: SUITE } });
    const rows = new Map(listed.traces.edges.map((edge) => [edge.node.name, edge.node.timeToFirstTokenMs]));
    expect(rows.get("chat")).toBeCloseTo(350, 1);
    expect(rows.get("batch")).toBeNull();
  });
});

describe("an interrupted graph run's root", () => {
  it("reads interrupted in GraphQL (list and trace), and success on LangSmith's wire", async () => {
    const listed = await executeOk(server, FilterTracesDocument, { metadata: { suite: SUITE } });
    const statuses = Object.fromEntries(listed.traces.edges.map((edge) => [edge.node.name, edge.node.status]));
    expect(statuses).toEqual({ approval: "interrupted", batch: "success", chat: "success" });

    const graph = await executeOk(server, TraceProgressDocument, { traceId: ids.graph });
    expect(graph.trace.root?.status).toBe("interrupted");
    expect(graph.trace.runs.edges.map((edge) => edge.node.status).sort()).toEqual(["interrupted", "interrupted"]);

    expect((await client.readRun(ids.graph)).status).toBe("success");
  });
});

describe("LangSmith's filter language on POST /tracing/runs/query", () => {
  async function queried(filter: string): Promise<string[]> {
    const found: string[] = [];
    for await (const run of client.listRuns({ filter })) found.push(run.id);
    return found.sort();
  }

  it("eq(feedback_key) with score comparisons, as LangSmith documents them", async () => {
    expect(await queried('eq(feedback_key, "helpfulness")')).toEqual([ids.chatLlm, ids.batchLlm].sort());
    expect(await queried('and(eq(feedback_key, "helpfulness"), gt(feedback_score, 0.5))')).toEqual([ids.chatLlm]);
    expect(await queried('and(eq(feedback_key, "helpfulness"), lt(feedback_score, 0.2))')).toEqual([]);
    expect(await queried('and(eq(feedback_key, "helpfulness"), lte(feedback_score, 0.2))')).toEqual([ids.batchLlm]);
    expect(await queried('and(eq(feedback_key, "helpfulness"), eq(feedback_score, 0.9))')).toEqual([ids.chatLlm]);
    expect(await queried('and(eq(feedback_key, "helpfulness"), eq(run_type, "chain"))')).toEqual([]);
  });

  it("refuses a score without its key, and a score that is no number, with 422", async () => {
    for (const filter of ["gt(feedback_score, 0.5)", 'and(eq(feedback_key, "helpfulness"), gt(feedback_score, "high"))', "eq(feedback_key, 1)"]) {
      const response = await server.request("/tracing/runs/query", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": API_KEY },
        body: JSON.stringify({ filter }),
      });
      expect(response.status, filter).toBe(422);
      expect(((await response.json()) as { detail: string }).detail).toContain("feedback_");
    }
  });
});
