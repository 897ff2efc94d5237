import { Client } from "langsmith";
import { RunTree } from "langsmith/run_trees";
import { v4 as uuidv4 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// langsmith 0.12's read paths against /tracing: readRun, listRuns({projectName}) (which resolves
// the project through GET /sessions?name=), and the generated client's runs.retrieve / runs.query.
const API_KEY = "tracing-reads-key";
const PROJECT = "reads-project";
let server: TestServer;
let client: Client;
const root = uuidv4();
const llm = uuidv4();
const elsewhere = uuidv4();

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [API_KEY] });
  client = new Client({ apiUrl: `${server.url}/tracing`, apiKey: API_KEY, autoBatchTracing: false, callerOptions: { maxRetries: 0 } });
  // As traceable() records a call: a RunTree whose child carries a dotted_order under its parent.
  const agent = new RunTree({ id: root, name: "agent", run_type: "chain", inputs: { q: "hi" }, project_name: PROJECT, client });
  await agent.postRun();
  const model = agent.createChild({
    id: llm,
    name: "ChatOpenAI",
    run_type: "llm",
    inputs: { messages: [{ role: "user", content: "hi" }] },
    extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
  });
  await model.postRun();
  await model.end({ role: "assistant", content: "hello", usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } }, undefined, model.start_time + 2000);
  await model.patchRun();
  await agent.end({ answer: "hello" });
  await agent.patchRun();
  await client.createRun({ id: elsewhere, name: "other", run_type: "chain", inputs: {}, start_time: Date.now(), project_name: "another-project" });
});

afterAll(async () => {
  await server?.close();
});

describe("langsmith 0.12 reads from the trace store", () => {
  it("readRun answers the stored run, with its children when asked", async () => {
    const run = await client.readRun(root, { loadChildRuns: true });
    expect(run).toMatchObject({ id: root, name: "agent", run_type: "chain", outputs: { answer: "hello" }, session_name: PROJECT });
    expect(run.child_runs?.map((child) => child.id)).toEqual([llm]);
  });

  it("readProject and listRuns({projectName}) find the project's runs by name", async () => {
    const project = await client.readProject({ projectName: PROJECT });
    expect(project).toMatchObject({ name: PROJECT, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(await client.readProject({ projectId: project.id })).toMatchObject({ id: project.id, name: PROJECT });
    const runs = [];
    for await (const run of client.listRuns({ projectName: PROJECT })) runs.push(run);
    expect(runs.map((run) => run.id).sort()).toEqual([root, llm].sort());
    expect(runs.find((run) => run.id === llm)).toMatchObject({ total_tokens: 15, prompt_tokens: 10, completion_tokens: 5 });
    const roots = [];
    for await (const run of client.listRuns({ projectName: PROJECT, isRoot: true })) roots.push(run.id);
    expect(roots).toEqual([root]);
    await expect(client.readProject({ projectName: "no-such-project" })).rejects.toThrow(/not found/);
  });

  it("runs.retrieve answers the selected fields of a run of the project, and only its id without selects", async () => {
    const { id: projectId } = await client.readProject({ projectName: PROJECT });
    const run = await client.runs.retrieve(llm, { project_id: projectId, selects: ["NAME", "STATUS", "OUTPUTS", "TOTAL_TOKENS", "PROJECT_ID", "IS_ROOT", "LATENCY_SECONDS"] });
    expect(run).toEqual({
      id: llm,
      name: "ChatOpenAI",
      status: "SUCCESS",
      outputs: { role: "assistant", content: "hello", usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } },
      total_tokens: 15,
      project_id: projectId,
      is_root: false,
      latency_seconds: 2,
    });
    expect(await client.runs.retrieve(llm, { project_id: projectId })).toEqual({ id: llm });
    const { id: otherProject } = await client.readProject({ projectName: "another-project" });
    await expect(client.runs.retrieve(llm, { project_id: otherProject })).rejects.toMatchObject({ status: 404 });
  });

  it("runs.query pages through a project's runs by cursor and filters them", async () => {
    const { id: projectId } = await client.readProject({ projectName: PROJECT });
    const names: string[] = [];
    for await (const run of client.runs.query({ project_ids: [projectId], selects: ["NAME"], page_size: 1 })) names.push(run.name!);
    expect(names.sort()).toEqual(["ChatOpenAI", "agent"]);
    const page = await client.runs.query({ project_ids: [projectId], run_type: "LLM", selects: ["NAME", "RUN_TYPE", "TOTAL_COST"] });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ id: llm, name: "ChatOpenAI", run_type: "LLM", total_cost: expect.any(Number) });
    const roots = await client.runs.query({ project_ids: [projectId], is_root: true });
    expect(roots.items).toEqual([{ id: root }]);
  });

  it("refuses what the store cannot answer, by name", async () => {
    const response = await server.request("/tracing/api/v2/runs/query", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY },
      body: JSON.stringify({ ai_search: "why did it fail" }),
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/ai_search/);
  });
});
