import { randomUUID } from "node:crypto";
import { Client } from "langsmith";
import { RunTree } from "langsmith/run_trees";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { ExpensiveTracesDocument, UsageRollupDocument } from "./generated/graphql.js";
import { errorCode, executeOk, executeOperation } from "./helpers.js";

// Roll-ups (usageSummary by thread, metadata key, assistant, model, day; expensiveTraces) over
// traces the official langsmith client sends, read through GraphQL on a running server.
let server: TestServer;
const assistantId = randomUUID();
const traceIds = { a: "", b: "", c: "", late: "" };
const RANGE = { from: "2025-07-01T00:00:00Z", to: "2025-07-04T00:00:00Z" };
const at = (iso: string) => Date.parse(iso);

interface ModelCall {
  model: string;
  inputTokens: number;
  outputTokens: number;
}

/**
 * One trace: a chain root carrying the metadata (thread and user keys) with LLM children. The
 * children name only their model: the SDK copies the root's metadata onto them, as LangChain does.
 */
async function sendTrace(client: Client, name: string, start: string, metadata: Record<string, string>, calls: ModelCall[]) {
  const root = new RunTree({ name, run_type: "chain", inputs: { q: name }, client, project_name: "rollups", start_time: at(start), metadata });
  await root.postRun();
  for (const [index, call] of calls.entries()) {
    const llm = root.createChild({
      name: "ChatOpenAI",
      run_type: "llm",
      start_time: at(start) + 1000 * (index + 1),
      metadata: { ls_model_name: call.model, ls_provider: "openai" },
      inputs: { messages: [{ role: "user", content: "hi" }] },
    });
    await llm.postRun();
    const usage = { prompt_tokens: call.inputTokens, completion_tokens: call.outputTokens, total_tokens: call.inputTokens + call.outputTokens };
    await llm.end({ choices: [{ index: 0, message: { role: "assistant", content: "ok" } }], usage }, undefined, at(start) + 1000 * (index + 1) + 500);
    await llm.patchRun();
  }
  await root.end({ answer: "ok" }, undefined, at(start) + 10_000);
  await root.patchRun();
  return root.trace_id;
}

beforeAll(async () => {
  server = await startTestServer();
  const client = new Client({ apiUrl: `${server.url}/tracing`, apiKey: "unused", autoBatchTracing: false, callerOptions: { maxRetries: 0 } });
  const mini = (scale: number): ModelCall => ({ model: "gpt-4o-mini", inputTokens: 1000 * scale, outputTokens: 500 * scale });
  const gpt4o: ModelCall = { model: "gpt-4o", inputTokens: 1000, outputTokens: 500 };
  // gpt-4o-mini 1000/500 costs 0.00045, 2000/1000 0.0009; gpt-4o 1000/500 costs 0.0075.
  traceIds.a = await sendTrace(client, "chat-a", "2025-07-01T10:00:00Z", { thread_id: "thread-1", user_id: "alice", assistant_id: assistantId }, [mini(1)]);
  traceIds.b = await sendTrace(client, "chat-b", "2025-07-02T10:00:00Z", { conversation_id: "thread-2", user_id: "bob", assistant_id: assistantId }, [
    gpt4o,
    mini(1),
  ]);
  traceIds.c = await sendTrace(client, "chat-c", "2025-07-02T12:00:00Z", { session_id: "thread-1", user_id: "alice" }, [mini(2)]);
  // Outside RANGE: counted only when the range covers it.
  traceIds.late = await sendTrace(client, "chat-late", "2025-07-05T10:00:00Z", { thread_id: "thread-1", user_id: "alice" }, [gpt4o]);
});

afterAll(async () => {
  await server?.close();
});

const columns = <T extends Record<string, unknown>>(rows: readonly T[], ...keys: (keyof T)[]) => rows.map((row) => keys.map((key) => row[key]));

describe("usageSummary roll-ups", () => {
  it("groups by thread (thread_id, session_id or conversation_id), most expensive first", async () => {
    const { usageSummary } = await executeOk(server, UsageRollupDocument, { ...RANGE, groupBy: ["THREAD"], orderBy: "COST" });
    expect(columns(usageSummary, "thread", "runCount", "totalTokens", "totalCost")).toEqual([
      ["thread-2", 3, 3000, "0.00795"],
      ["thread-1", 4, 4500, "0.00135"],
    ]);
  });

  it("groups by a metadata key's value, alone and per day", async () => {
    const byUser = await executeOk(server, UsageRollupDocument, { ...RANGE, groupBy: ["METADATA"], metadataKey: "user_id", orderBy: "COST" });
    expect(columns(byUser.usageSummary, "metadataValue", "runCount", "totalCost")).toEqual([
      ["bob", 3, "0.00795"],
      ["alice", 4, "0.00135"],
    ]);
    const byDayAndUser = await executeOk(server, UsageRollupDocument, { ...RANGE, groupBy: ["METADATA", "DAY"], metadataKey: "user_id" });
    expect(columns(byDayAndUser.usageSummary, "day", "metadataValue", "totalCost")).toEqual([
      ["2025-07-01", "alice", "0.00045"],
      ["2025-07-02", "alice", "0.0009"],
      ["2025-07-02", "bob", "0.00795"],
    ]);
    const byMissingKey = await executeOk(server, UsageRollupDocument, { ...RANGE, groupBy: ["METADATA"], metadataKey: "tenant" });
    expect(columns(byMissingKey.usageSummary, "metadataValue", "runCount", "totalCost")).toEqual([[null, 7, "0.0093"]]);
  });

  it("groups by assistant and by model, bounded by first", async () => {
    const byAssistant = await executeOk(server, UsageRollupDocument, { ...RANGE, groupBy: ["ASSISTANT"], orderBy: "COST" });
    expect(columns(byAssistant.usageSummary, "assistantId", "runCount", "totalCost")).toEqual([
      [assistantId, 5, "0.0084"],
      [null, 2, "0.0009"],
    ]);
    const byModel = await executeOk(server, UsageRollupDocument, { ...RANGE, groupBy: ["MODEL"], orderBy: "COST" });
    expect(columns(byModel.usageSummary, "model", "runCount", "totalCost")).toEqual([
      ["gpt-4o", 1, "0.0075"],
      ["gpt-4o-mini", 3, "0.0018"],
      [null, 3, "0"],
    ]);
    const top = await executeOk(server, UsageRollupDocument, { ...RANGE, groupBy: ["MODEL"], orderBy: "COST", first: 1 });
    expect(columns(top.usageSummary, "model")).toEqual([["gpt-4o"]]);
  });

  it("counts only runs that started in the time range", async () => {
    const firstDay = await executeOk(server, UsageRollupDocument, { from: "2025-07-01T00:00:00Z", to: "2025-07-02T00:00:00Z", groupBy: ["THREAD"] });
    expect(columns(firstDay.usageSummary, "thread", "runCount", "totalCost")).toEqual([["thread-1", 2, "0.00045"]]);
    const wider = await executeOk(server, UsageRollupDocument, { from: "2025-07-01T00:00:00Z", to: "2025-07-06T00:00:00Z", groupBy: ["THREAD"] });
    expect(columns(wider.usageSummary, "thread", "runCount", "totalCost")).toEqual([
      ["thread-1", 6, "0.00885"],
      ["thread-2", 3, "0.00795"],
    ]);
  });
});

describe("expensiveTraces", () => {
  it("ranks root runs by their whole trace's cost, with the sums", async () => {
    const { expensiveTraces } = await executeOk(server, ExpensiveTracesDocument, { ...RANGE, first: 2 });
    expect(expensiveTraces).toEqual([
      {
        traceId: traceIds.b,
        name: "chat-b",
        startTime: "2025-07-02T10:00:00.000Z",
        totals: { runCount: 3, modelNames: ["gpt-4o", "gpt-4o-mini"], usage: { totalTokens: 3000 }, cost: { totalCost: "0.00795" } },
      },
      {
        traceId: traceIds.c,
        name: "chat-c",
        startTime: "2025-07-02T12:00:00.000Z",
        totals: { runCount: 2, modelNames: ["gpt-4o-mini"], usage: { totalTokens: 3000 }, cost: { totalCost: "0.0009" } },
      },
    ]);
    const everything = await executeOk(server, ExpensiveTracesDocument, { from: RANGE.from, to: "2025-07-06T00:00:00Z" });
    expect(everything.expensiveTraces.map((trace) => trace.name)).toEqual(["chat-b", "chat-late", "chat-c", "chat-a"]);
    const none = await executeOk(server, ExpensiveTracesDocument, { from: "2024-01-01T00:00:00Z", to: "2024-02-01T00:00:00Z" });
    expect(none.expensiveTraces).toEqual([]);
  });
});

describe("bad roll-up arguments", () => {
  it.each([
    ["METADATA without metadataKey", { groupBy: ["METADATA"] }, /metadataKey is required/],
    ["a blank metadataKey", { groupBy: ["METADATA"], metadataKey: "  " }, /metadataKey is required/],
    ["metadataKey without METADATA", { groupBy: ["MODEL"], metadataKey: "user_id" }, /metadataKey is given but groupBy lacks METADATA/],
    ["a metadataKey past 200 characters", { groupBy: ["METADATA"], metadataKey: "k".repeat(201) }, /metadataKey must be at most 200/],
    ["first 0", { groupBy: ["MODEL"], first: 0 }, /first must be 1\.\.5000, got 0/],
    ["first past the maximum", { groupBy: ["MODEL"], first: 5001 }, /first must be 1\.\.5000/],
    ["an empty range", { groupBy: ["MODEL"], from: RANGE.to, to: RANGE.from }, /from and to/],
  ] as const)("usageSummary with %s: INVALID_INPUT naming the argument", async (_case, args, message) => {
    const result = await executeOperation(server, UsageRollupDocument, { ...RANGE, ...args, groupBy: [...args.groupBy] });
    expect(errorCode(result)).toBe("INVALID_INPUT");
    expect(result.errors?.[0]?.message).toMatch(message);
    expect(result.data).toBeNull();
  });

  it("expensiveTraces with first past 100: INVALID_INPUT naming first", async () => {
    const result = await executeOperation(server, ExpensiveTracesDocument, { ...RANGE, first: 101 });
    expect(errorCode(result)).toBe("INVALID_INPUT");
    expect(result.errors?.[0]?.message).toMatch(/first must be 1\.\.100, got 101/);
  });
});
