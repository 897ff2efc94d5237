import { randomUUID } from "node:crypto";
import { Client } from "langsmith";
import { RunTree } from "langsmith/run_trees";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { tracesService } from "../../src/services/traces.service.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import {
  GetRunTraceDocument,
  GetTraceDocument,
  GetTraceRunDocument,
  GetTraceRunNodeDocument,
  ListThreadRunsUsageDocument,
  ListTraceTreesDocument,
  ListTracesDocument,
  UsageSummaryDocument,
  type ListTracesQueryVariables,
} from "./generated/graphql.js";
import { errorCode, executeOk, executeOperation } from "./helpers.js";

// Traces ingested with the official langsmith SDK, read back through GraphQL.
let server: TestServer;

const SUITE = { suite: "graphql-traces" };
const links = { thread_id: randomUUID(), assistant_id: randomUUID(), run_id: randomUUID() };
const ids = {
  support: "",
  supportLlm: "",
  weatherTool: "",
  weatherApi: "",
  summarizer: "",
  summarizerLlm: "",
  legacy: "",
};

const at = (iso: string) => Date.parse(iso);
const TOKENS_1000_500 = { inputTokens: 1000, outputTokens: 500, totalTokens: 1500 };
const text = (value: string) => ({ __typename: "TextBlock", text: value, annotations: null, extras: null });

function sdkClient(): Client {
  return new Client({ apiUrl: `${server.url}/tracing`, apiKey: "unused", autoBatchTracing: false, callerOptions: { maxRetries: 0 } });
}

/**
 * Three traces:
 * - support-agent (2025-06-01, linked to a Hangar run, thread and assistant): an OpenAI-format
 *   gpt-4o-mini call with 1000/500 tokens, and a tool with a retriever under it;
 * - summarizer (2025-06-02, failed): an Anthropic-format claude-3-5-haiku call, 1000/500 tokens;
 * - legacy (2025-05-30): a lone chain.
 */
async function ingestFixture(): Promise<void> {
  const client = sdkClient();
  const support = new RunTree({
    name: "support-agent",
    run_type: "chain",
    inputs: { question: "Weather in Paris?" },
    client,
    project_name: "graphql-traces",
    start_time: at("2025-06-01T10:00:00Z"),
    metadata: { ...SUITE, ...links },
  });
  await support.postRun();
  const llm = support.createChild({
    name: "ChatOpenAI",
    run_type: "llm",
    start_time: at("2025-06-01T10:00:01Z"),
    metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" },
    inputs: {
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "You are a weather bot." },
        {
          role: "user",
          content: [
            { type: "text", text: "What's the weather here?" },
            { type: "image_url", image_url: { url: "https://example.com/street.jpg" } },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          ],
        },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "sunny, 24°C" },
      ],
    },
  });
  await llm.postRun();
  llm.addEvent({ name: "new_token", time: "2025-06-01T10:00:01.250000Z", kwargs: { token: "It" } });
  await llm.end(
    {
      choices: [{ index: 0, message: { role: "assistant", content: "It is sunny." }, finish_reason: "stop" }],
      usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 },
    },
    undefined,
    at("2025-06-01T10:00:03Z"),
  );
  await llm.patchRun();
  const tool = support.createChild({
    name: "get_weather",
    run_type: "tool",
    start_time: at("2025-06-01T10:00:03.5Z"),
    inputs: { city: "Paris" },
  });
  await tool.postRun();
  const api = tool.createChild({ name: "weather-api", run_type: "retriever", start_time: at("2025-06-01T10:00:03.6Z"), inputs: {} });
  await api.postRun();
  await api.end({ documents: [] }, undefined, at("2025-06-01T10:00:03.9Z"));
  await api.patchRun();
  await tool.end({ output: "sunny, 24°C" }, undefined, at("2025-06-01T10:00:04Z"));
  await tool.patchRun();
  await support.end({ answer: "It is sunny." }, undefined, at("2025-06-01T10:00:05Z"));
  await support.patchRun();

  const summarizer = new RunTree({
    name: "summarizer",
    run_type: "chain",
    inputs: { text: "…" },
    client,
    project_name: "graphql-traces",
    start_time: at("2025-06-02T09:00:00Z"),
    metadata: SUITE,
  });
  await summarizer.postRun();
  const claude = summarizer.createChild({
    name: "ChatAnthropic",
    run_type: "llm",
    start_time: at("2025-06-02T09:00:01Z"),
    metadata: { ls_model_name: "claude-3-5-haiku-20241022", ls_provider: "anthropic" },
    inputs: {
      model: "claude-3-5-haiku-20241022",
      system: "Summarize.",
      messages: [{ role: "user", content: [{ type: "text", text: "A long text." }] }],
    },
  });
  await claude.postRun();
  await claude.end(
    {
      role: "assistant",
      content: [{ type: "text", text: "Short." }],
      usage: { input_tokens: 1000, output_tokens: 500 },
    },
    undefined,
    at("2025-06-02T09:00:02Z"),
  );
  await claude.patchRun();
  await summarizer.end(undefined, "ValueError: the summary was too long", at("2025-06-02T09:00:03Z"));
  await summarizer.patchRun();

  const legacy = new RunTree({
    name: "legacy",
    run_type: "chain",
    inputs: {},
    client,
    project_name: "graphql-traces",
    start_time: at("2025-05-30T08:00:00Z"),
    metadata: SUITE,
  });
  await legacy.postRun();
  await legacy.end({}, undefined, at("2025-05-30T08:00:01Z"));
  await legacy.patchRun();

  Object.assign(ids, {
    support: support.id,
    supportLlm: llm.id,
    weatherTool: tool.id,
    weatherApi: api.id,
    summarizer: summarizer.id,
    summarizerLlm: claude.id,
    legacy: legacy.id,
  });
}

beforeAll(async () => {
  server = await startTestServer();
  await ingestFixture();
});

afterAll(async () => {
  await server?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function listIds(variables: ListTracesQueryVariables): Promise<string[]> {
  const { traces } = await executeOk(server, ListTracesDocument, { metadata: SUITE, ...variables });
  return traces.edges.map((edge) => edge.node.traceRunId);
}

describe("traces", () => {
  it("lists root runs newest first, with the total", async () => {
    const { traces } = await executeOk(server, ListTracesDocument, { metadata: SUITE });
    expect(traces.edges.map((edge) => edge.node)).toEqual([
      { traceRunId: ids.summarizer, name: "summarizer", runType: "chain", modelName: null, startTime: "2025-06-02T09:00:00.000Z" },
      { traceRunId: ids.support, name: "support-agent", runType: "chain", modelName: null, startTime: "2025-06-01T10:00:00.000Z" },
      { traceRunId: ids.legacy, name: "legacy", runType: "chain", modelName: null, startTime: "2025-05-30T08:00:00.000Z" },
    ]);
    expect(traces.totalCount).toBe(3);
    expect(traces.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
  });

  it("does not count a LangGraph interrupt recorded as a run's error as a failure", async () => {
    const suite = { suite: "graphql-traces-interrupts" };
    const client = sdkClient();
    const ended = async (name: string, error: string) => {
      const run = new RunTree({ name, run_type: "chain", inputs: {}, client, project_name: "graphql-traces", metadata: suite });
      await run.postRun();
      await run.end(undefined, error);
      await run.patchRun();
      return run.id;
    };
    const interrupted = await ended("asks", '[{"value": "Send it?"}]\n\nGraphInterrupt: [{"value": "Send it?"}]\n    at interrupt (file:///x.js:1:1)');
    const failed = await ended("breaks", "TypeError: x is undefined");
    const names = async (hasError: boolean) =>
      (await executeOk(server, ListTracesDocument, { metadata: suite, hasError })).traces.edges.map((edge) => edge.node.traceRunId).sort();
    expect(await names(true)).toEqual([failed]);
    expect(await names(false)).toEqual([interrupted]);
  });

  it("filters by time range, run type, model, provider, error, Hangar run, thread, assistant, trace and metadata", async () => {
    expect(await listIds({ startTimeFrom: "2025-06-01T00:00:00Z", startTimeTo: "2025-06-02T00:00:00Z" })).toEqual([ids.support]);
    expect(await listIds({ startTimeFrom: "2025-06-01T10:00:00Z" })).toEqual([ids.summarizer, ids.support]);
    expect(await listIds({ rootsOnly: false, runType: "llm" })).toEqual([ids.summarizerLlm, ids.supportLlm]);
    expect(await listIds({ rootsOnly: false, model: "gpt-4o-mini" })).toEqual([ids.supportLlm]);
    expect(await listIds({ rootsOnly: false, provider: "anthropic" })).toEqual([ids.summarizerLlm]);
    expect(await listIds({ hasError: true })).toEqual([ids.summarizer]);
    expect(await listIds({ hasError: false })).toEqual([ids.support, ids.legacy]);
    expect(await listIds({ runId: links.run_id.toUpperCase() })).toEqual([ids.support]);
    expect(await listIds({ threadId: links.thread_id })).toEqual([ids.support]);
    expect(await listIds({ assistantId: links.assistant_id, rootsOnly: false })).toEqual([
      ids.weatherApi,
      ids.weatherTool,
      ids.supportLlm,
      ids.support,
    ]);
    expect(await listIds({ traceId: ids.summarizer, rootsOnly: false })).toEqual([ids.summarizerLlm, ids.summarizer]);
    expect(await listIds({ metadata: { ...SUITE, thread_id: links.thread_id } })).toEqual([ids.support]);
    expect(await listIds({ metadata: { suite: "another" } })).toEqual([]);

    const counted = await executeOk(server, ListTracesDocument, { metadata: SUITE, rootsOnly: false, hasError: false, first: 1 });
    expect(counted.traces.totalCount).toBe(6);
  });

  it("pages forwards with first/after and backwards with last/before over stable cursors", async () => {
    const all = await listIds({ rootsOnly: false });
    expect(all).toHaveLength(7);

    const seen: string[] = [];
    let after: string | null | undefined;
    for (let page = 0; page < 4; page++) {
      const { traces } = await executeOk(server, ListTracesDocument, { metadata: SUITE, rootsOnly: false, first: 3, after });
      seen.push(...traces.edges.map((edge) => edge.node.traceRunId));
      expect(traces.totalCount).toBe(7);
      expect(traces.pageInfo.hasPreviousPage).toBe(page > 0);
      if (!traces.pageInfo.hasNextPage) break;
      after = traces.pageInfo.endCursor;
    }
    expect(seen).toEqual(all);

    const lastTwo = await executeOk(server, ListTracesDocument, { metadata: SUITE, rootsOnly: false, last: 2 });
    expect(lastTwo.traces.edges.map((edge) => edge.node.traceRunId)).toEqual(all.slice(5));
    expect(lastTwo.traces.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const before = await executeOk(server, ListTracesDocument, {
      metadata: SUITE,
      rootsOnly: false,
      last: 3,
      before: lastTwo.traces.pageInfo.startCursor,
    });
    expect(before.traces.edges.map((edge) => edge.node.traceRunId)).toEqual(all.slice(2, 5));
    expect(before.traces.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
  });

  it("rejects malformed ids, cursors and after together with before as INVALID_INPUT", async () => {
    expect(errorCode(await executeOperation(server, ListTracesDocument, { runId: "nope" }))).toBe("INVALID_INPUT");
    expect(errorCode(await executeOperation(server, ListTracesDocument, { after: "not-a-cursor" }))).toBe("INVALID_INPUT");
    const { traces } = await executeOk(server, ListTracesDocument, { metadata: SUITE, first: 1 });
    const cursor = traces.pageInfo.endCursor!;
    expect(errorCode(await executeOperation(server, ListTracesDocument, { after: cursor, before: cursor }))).toBe("INVALID_INPUT");
    expect(errorCode(await executeOperation(server, ListTracesDocument, { first: -1 }))).toBe("INVALID_INPUT");
  });

  it("loads children and totals of a page of traces in one batched call per tree level", async () => {
    const childIds = vi.spyOn(tracesService, "listChildIds");
    const getMany = vi.spyOn(tracesService, "getMany");
    const perRun = vi.spyOn(tracesService, "listChildren");
    const totals = vi.spyOn(tracesService, "totalsForTraces");

    const { traces } = await executeOk(server, ListTraceTreesDocument, { metadata: SUITE });
    const [summarizer, support, legacy] = traces.edges.map((edge) => edge.node);
    expect(support!.children.edges.map((edge) => edge.node.name)).toEqual(["ChatOpenAI", "get_weather"]);
    expect(support!.children.edges[1]!.node.children.edges.map((edge) => edge.node.traceRunId)).toEqual([ids.weatherApi]);
    expect(summarizer!.children.edges.map((edge) => edge.node.name)).toEqual(["ChatAnthropic"]);
    expect(legacy!.children).toEqual({ totalCount: 0, edges: [] });
    expect(support!.totals).toEqual({
      runCount: 4,
      usage: { ...TOKENS_1000_500, inputTokenDetails: null, outputTokenDetails: null, estimated: null },
      cost: {
        promptCost: "0.00015",
        completionCost: "0.0003",
        totalCost: "0.00045",
        promptCostDetails: null,
        completionCostDetails: null,
        source: null,
        priceId: null,
        priceTier: null,
        serviceTier: null,
      },
    });
    expect(legacy!.totals).toMatchObject({ runCount: 1, cost: { totalCost: "0" } });

    // Two levels of children: ids and runs once per level, however many traces are listed.
    expect(childIds).toHaveBeenCalledTimes(2);
    expect([...childIds.mock.calls[0]![1]].sort()).toEqual([ids.summarizer, ids.support, ids.legacy].sort());
    expect(getMany).toHaveBeenCalledTimes(2);
    expect(totals).toHaveBeenCalledTimes(1);
    expect(perRun).not.toHaveBeenCalled();
  });
});

describe("trace(traceId) and traceRun(traceRunId)", () => {
  it("reads a whole tree at once: walking its children costs no further query", async () => {
    const childIds = vi.spyOn(tracesService, "listChildIds");
    const getMany = vi.spyOn(tracesService, "getMany");
    const { trace } = await executeOk(server, GetTraceDocument, { traceId: ids.support.toUpperCase() });
    expect(trace.traceId).toBe(ids.support);
    expect(trace.root).toEqual({
      traceRunId: ids.support,
      name: "support-agent",
      children: {
        edges: [
          { node: { traceRunId: ids.supportLlm, name: "ChatOpenAI", children: { edges: [] } } },
          {
            node: {
              traceRunId: ids.weatherTool,
              name: "get_weather",
              children: { edges: [{ node: { traceRunId: ids.weatherApi, name: "weather-api" } }] },
            },
          },
        ],
      },
    });
    expect(trace.runs.totalCount).toBe(4);
    expect(trace.runs.edges.map((edge) => [edge.node.name, edge.node.parentRunId])).toEqual([
      ["support-agent", null],
      ["ChatOpenAI", ids.support],
      ["get_weather", ids.support],
      ["weather-api", ids.weatherTool],
    ]);
    expect(trace.totals.cost.totalCost).toBe("0.00045");
    expect(childIds).not.toHaveBeenCalled();
    expect(getMany).not.toHaveBeenCalled();
  });

  it("renders an OpenAI call's messages as typed content blocks, with its usage and cost", async () => {
    const { traceRun } = await executeOk(server, GetTraceRunDocument, { traceRunId: ids.supportLlm });
    expect(traceRun).toMatchObject({
      traceRunId: ids.supportLlm,
      traceId: ids.support,
      parentRunId: ids.support,
      name: "ChatOpenAI",
      runType: "llm",
      status: "success",
      startTime: "2025-06-01T10:00:01.000Z",
      endTime: "2025-06-01T10:00:03.000Z",
      firstTokenTime: "2025-06-01T10:00:01.250Z",
      modelName: "gpt-4o-mini",
      provider: "openai",
      sessionName: "graphql-traces",
      hangarRunId: links.run_id,
      threadId: links.thread_id,
      assistantId: links.assistant_id,
      error: null,
      warnings: [],
      usage: { ...TOKENS_1000_500, inputTokenDetails: null, outputTokenDetails: null, estimated: false },
      cost: { promptCost: "0.00015", completionCost: "0.0003", totalCost: "0.00045", source: "PRICE_TABLE" },
      totals: null,
    });
    expect(traceRun.cost?.priceId).toEqual(expect.any(String));
    // The SDK pads an execution order into the microseconds, which these keep.
    expect(traceRun.latencyMs).toBeCloseTo(2000, 1);
    expect(traceRun.timeToFirstTokenMs).toBeCloseTo(250, 1);
    expect(traceRun.dottedOrder).toMatch(new RegExp(`^20250601T100000\\d{6}Z${ids.support}\\.20250601T100001\\d{6}Z${ids.supportLlm}$`));
    // Stored verbatim.
    expect(traceRun.outputs).toEqual({
      choices: [{ index: 0, message: { role: "assistant", content: "It is sunny." }, finish_reason: "stop" }],
      usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 },
    });
    expect((traceRun.inputs as { messages: unknown[] }).messages).toHaveLength(4);
    expect(traceRun.events).toEqual(expect.arrayContaining([expect.objectContaining({ name: "new_token" })]));

    const rendered = traceRun.rendered!;
    expect(rendered.format).toBe("OPENAI");
    expect(rendered.warnings).toEqual([]);
    expect(rendered.inputMessages).toEqual([
      { role: "SYSTEM", name: null, toolCallId: null, content: [text("You are a weather bot.")] },
      {
        role: "USER",
        name: null,
        toolCallId: null,
        content: [
          text("What's the weather here?"),
          { __typename: "MediaBlock", kind: "IMAGE", url: "https://example.com/street.jpg", base64: null, id: null, mimeType: null },
          { __typename: "MediaBlock", kind: "IMAGE", url: null, base64: "iVBORw0KGgo=", id: null, mimeType: "image/png" },
        ],
      },
      {
        role: "ASSISTANT",
        name: null,
        toolCallId: null,
        content: [{ __typename: "ToolCallBlock", id: "call_1", name: "get_weather", args: { city: "Paris" } }],
      },
      { role: "TOOL", name: null, toolCallId: "call_1", content: [text("sunny, 24°C")] },
    ]);
    expect(rendered.outputMessages).toEqual([
      { role: "ASSISTANT", name: null, toolCallId: null, content: [text("It is sunny.")] },
    ]);
  });

  it("shows a root run's trace totals, a failed run's error and no usage on chains", async () => {
    const { traceRun: root } = await executeOk(server, GetTraceRunDocument, { traceRunId: ids.summarizer });
    expect(root).toMatchObject({
      parentRunId: null,
      status: "error",
      error: "ValueError: the summary was too long",
      usage: null,
      cost: null,
      rendered: null,
      totals: { runCount: 2, usage: { inputTokens: 1000, outputTokens: 500, totalTokens: 1500 }, cost: { totalCost: "0.0028" } },
    });
    const { traceRun: claude } = await executeOk(server, GetTraceRunDocument, { traceRunId: ids.summarizerLlm });
    expect(claude.rendered).toMatchObject({
      format: "ANTHROPIC",
      inputMessages: [
        { role: "SYSTEM", content: [{ __typename: "TextBlock", text: "Summarize." }] },
        { role: "USER", content: [{ __typename: "TextBlock", text: "A long text." }] },
      ],
      outputMessages: [{ role: "ASSISTANT", content: [{ __typename: "TextBlock", text: "Short." }] }],
    });
    expect(claude.cost).toMatchObject({ promptCost: "0.0008", completionCost: "0.002", totalCost: "0.0028" });
  });

  it("round-trips a trace run's global id through node(id)", async () => {
    const { traceRun } = await executeOk(server, GetTraceRunDocument, { traceRunId: ids.weatherTool });
    const { node } = await executeOk(server, GetTraceRunNodeDocument, { id: traceRun.id });
    expect(node).toEqual({ __typename: "TraceRun", id: traceRun.id, traceRunId: ids.weatherTool, name: "get_weather" });
  });

  it("answers NOT_FOUND for unknown or malformed ids", async () => {
    const unknown = randomUUID();
    expect(errorCode(await executeOperation(server, GetTraceRunDocument, { traceRunId: unknown }))).toBe("NOT_FOUND");
    expect(errorCode(await executeOperation(server, GetTraceRunDocument, { traceRunId: "nope" }))).toBe("NOT_FOUND");
    expect(errorCode(await executeOperation(server, GetTraceDocument, { traceId: unknown }))).toBe("NOT_FOUND");
  });
});

describe("usageSummary", () => {
  const range = { from: "2025-05-29T00:00:00Z", to: "2025-06-03T00:00:00Z" };

  it("groups model calls by day and model", async () => {
    const { usageSummary } = await executeOk(server, UsageSummaryDocument, { ...range, groupBy: ["MODEL", "DAY"], runTypes: ["llm"] });
    expect(usageSummary).toEqual([
      {
        day: "2025-06-01",
        model: "gpt-4o-mini",
        provider: null,
        assistantId: null,
        runCount: 1,
        inputTokens: 1000,
        outputTokens: 500,
        totalTokens: 1500,
        promptCost: "0.00015",
        completionCost: "0.0003",
        totalCost: "0.00045",
      },
      {
        day: "2025-06-02",
        model: "claude-3-5-haiku-20241022",
        provider: null,
        assistantId: null,
        runCount: 1,
        inputTokens: 1000,
        outputTokens: 500,
        totalTokens: 1500,
        promptCost: "0.0008",
        completionCost: "0.002",
        totalCost: "0.0028",
      },
    ]);
  });

  it("groups by model alone (runs without a model last), by provider, by assistant, or not at all", async () => {
    const byModel = await executeOk(server, UsageSummaryDocument, { ...range, groupBy: ["MODEL"] });
    expect(byModel.usageSummary.map((row) => [row.model, row.runCount, row.totalCost])).toEqual([
      ["claude-3-5-haiku-20241022", 1, "0.0028"],
      ["gpt-4o-mini", 1, "0.00045"],
      [null, 5, "0"],
    ]);
    const byProvider = await executeOk(server, UsageSummaryDocument, { ...range, groupBy: ["PROVIDER"], runTypes: ["llm"] });
    expect(byProvider.usageSummary.map((row) => [row.provider, row.totalTokens])).toEqual([
      ["anthropic", 1500],
      ["openai", 1500],
    ]);
    const byAssistant = await executeOk(server, UsageSummaryDocument, { ...range, groupBy: ["ASSISTANT"] });
    expect(byAssistant.usageSummary.map((row) => [row.assistantId, row.runCount])).toEqual([
      [links.assistant_id, 4],
      [null, 3],
    ]);
    const overall = await executeOk(server, UsageSummaryDocument, { ...range, groupBy: [] });
    expect(overall.usageSummary).toEqual([
      expect.objectContaining({ model: null, day: null, runCount: 7, totalTokens: 3000, totalCost: "0.00325" }),
    ]);
  });

  it("rejects an empty or reversed range as INVALID_INPUT", async () => {
    const reversed = await executeOperation(server, UsageSummaryDocument, { from: range.to, to: range.from, groupBy: ["DAY"] });
    expect(errorCode(reversed)).toBe("INVALID_INPUT");
  });
});

describe("Run.trace, Run.usage and Run.cost", () => {
  it("shows a graph run's own trace: the agent's offline model call with its tokens and cost", async () => {
    const thread = await server.client.threads.create();
    await server.client.runs.wait(thread.thread_id, "agent", { input: { messages: [{ role: "user", content: "hi" }] } });
    const [hangarRun] = await server.client.runs.list(thread.thread_id);
    const runId = hangarRun!.run_id;

    const { run } = await executeOk(server, GetRunTraceDocument, { runId });
    const root = run.trace!;
    expect(root).toMatchObject({ traceRunId: runId, hangarRunId: runId, runType: "chain", usage: null, cost: null });
    type Node = { runType?: string | null; children?: { edges: Array<{ node: Node }> } } & Record<string, unknown>;
    const descendants = (node: Node): Node[] =>
      (node.children?.edges ?? []).flatMap((edge) => [edge.node, ...descendants(edge.node)]);
    const llm = descendants(root as Node).find((node) => node.runType === "llm");
    expect(llm).toMatchObject({
      modelName: "offline-echo",
      provider: "hangar",
      hangarRunId: runId,
      usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number), estimated: false },
      cost: { source: "PRICE_TABLE", totalCost: expect.any(String) },
    });
    const llmUsage = llm!.usage as { inputTokens: number; outputTokens: number; totalTokens: number };
    expect(llmUsage.inputTokens).toBeGreaterThan(0);
    expect(llmUsage.outputTokens).toBeGreaterThan(0);
    const llmCost = (llm!.cost as { totalCost: string }).totalCost;
    expect(Number(llmCost)).toBeGreaterThan(0);

    // The run's sums are its trace's: one model call.
    expect(run.usage).toMatchObject({ totalTokens: llmUsage.totalTokens, estimated: null });
    expect(run.cost).toMatchObject({ totalCost: llmCost, source: null });
    expect(root.totals).toMatchObject({ usage: { totalTokens: llmUsage.totalTokens }, cost: { totalCost: llmCost } });
  });

  it("batches the traces and sums of a list of runs, and shows zeros for a run that recorded nothing", async () => {
    const thread = await server.client.threads.create();
    const input = { messages: [{ role: "user", content: "hello" }] };
    await server.client.runs.wait(thread.thread_id, "agent", { input });
    await server.client.runs.wait(thread.thread_id, "agent", { input });

    const getMany = vi.spyOn(tracesService, "getMany");
    const sums = vi.spyOn(tracesService, "totalsForHangarRuns");
    const { thread: listed } = await executeOk(server, ListThreadRunsUsageDocument, { threadId: thread.thread_id });
    const runs = listed.runs.edges.map((edge) => edge.node);
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(run.trace?.traceRunId).toBe(run.runId);
      expect(run.usage.totalTokens).toBeGreaterThan(0);
      expect(Number(run.cost.totalCost)).toBeGreaterThan(0);
    }
    expect(getMany).toHaveBeenCalledTimes(1);
    expect(sums).toHaveBeenCalledTimes(1);

    const empty = await server.client.threads.create();
    const pending = await server.client.runs.create(empty.thread_id, "agent", { input, afterSeconds: 3600 });
    const { run } = await executeOk(server, GetRunTraceDocument, { runId: pending.run_id });
    expect(run).toMatchObject({
      trace: null,
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      cost: { promptCost: "0", completionCost: "0", totalCost: "0" },
    });
  });
});
