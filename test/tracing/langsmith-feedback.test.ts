import { Client } from "langsmith";
import { RunTree } from "langsmith/run_trees";
import { v4 as uuidv4 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// LangSmith's feedback API on the trace store, as langsmith 0.12's Client calls it (apiUrl = <server>/tracing),
// and the same feedback through GraphQL.
const API_KEY = "feedback-key";
let server: TestServer;
let client: Client;
const root = uuidv4();
const llm = uuidv4();
const other = uuidv4();

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [API_KEY] });
  client = new Client({ apiUrl: `${server.url}/tracing`, apiKey: API_KEY, autoBatchTracing: false, callerOptions: { maxRetries: 0 } });
  const agent = new RunTree({ id: root, name: "agent", run_type: "chain", inputs: { q: "hi" }, project_name: "feedback-project", client });
  await agent.postRun();
  const model = agent.createChild({ id: llm, name: "ChatOpenAI", run_type: "llm", inputs: { messages: [{ role: "user", content: "hi" }] } });
  await model.postRun();
  await model.end({ role: "assistant", content: "hello" });
  await model.patchRun();
  await agent.end({ answer: "hello" });
  await agent.patchRun();
  await client.createRun({ id: other, name: "unjudged", run_type: "chain", inputs: {}, start_time: Date.now(), project_name: "feedback-project" });
});

afterAll(async () => {
  await server?.close();
});

async function graphql(query: string, variables: Record<string, unknown> = {}) {
  const response = await server.request("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
}

async function postFeedback(body: unknown) {
  const response = await server.request("/tracing/feedback", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function listed(options: Parameters<Client["listFeedback"]>[0]) {
  const found = [];
  for await (const feedback of client.listFeedback(options)) found.push(feedback);
  return found;
}

describe("langsmith's feedback calls against Hangar", () => {
  it("createFeedback, readFeedback, listFeedback, updateFeedback and deleteFeedback", async () => {
    const created = await client.createFeedback(llm, "correctness", {
      score: 0.123456,
      value: "mostly right",
      comment: "cites no source",
      correction: { content: "hello, with a source" },
      feedbackSourceType: "model",
      sourceInfo: { judge: "gpt-4o" },
      traceId: root,
    });
    const read = await client.readFeedback(created.id);
    expect(read).toMatchObject({
      id: created.id,
      run_id: llm,
      trace_id: root,
      key: "correctness",
      score: 0.1235,
      value: "mostly right",
      comment: "cites no source",
      correction: { content: "hello, with a source" },
      feedback_source: { type: "model", metadata: { judge: "gpt-4o" } },
    });
    expect(Date.parse(read.created_at as unknown as string)).not.toBeNaN();

    const thumbs = await client.createFeedback(root, "user_thumbs", { score: true, feedbackSourceType: "api" });
    expect((await listed({ runIds: [llm] })).map((feedback) => feedback.id)).toEqual([created.id]);
    expect((await listed({ runIds: [llm, root] })).map((feedback) => feedback.id).sort()).toEqual([created.id, thumbs.id].sort());
    expect((await listed({ feedbackKeys: ["user_thumbs"] })).map((feedback) => [feedback.id, feedback.score])).toEqual([[thumbs.id, 1]]);
    expect((await listed({ feedbackSourceTypes: ["model"] })).map((feedback) => feedback.id)).toEqual([created.id]);
    expect(await listed({ runIds: [other] })).toEqual([]);

    await client.updateFeedback(created.id, { score: 1, comment: "fixed upstream" });
    const updated = await client.readFeedback(created.id);
    expect(updated).toMatchObject({ score: 1, comment: "fixed upstream", value: "mostly right", correction: { content: "hello, with a source" } });
    expect(Date.parse(updated.modified_at as unknown as string)).toBeGreaterThanOrEqual(Date.parse(updated.created_at as unknown as string));
    // null clears a field; an absent one is kept.
    await client.updateFeedback(created.id, { correction: null as unknown as object });
    expect(await client.readFeedback(created.id)).toMatchObject({ correction: null, comment: "fixed upstream", score: 1 });

    await client.deleteFeedback(thumbs.id);
    await expect(client.readFeedback(thumbs.id)).rejects.toThrow(/404|not found/i);
    await expect(client.deleteFeedback(thumbs.id)).rejects.toThrow(/404|not found/i);
    expect((await listed({ runIds: [root] })).length).toBe(0);
  });

  it("feedback on an unknown run is a 404 and nothing is stored", async () => {
    const missing = uuidv4();
    await expect(client.createFeedback(missing, "correctness", { score: 1 })).rejects.toThrow(/404|not found/i);
    const direct = await postFeedback({ run_id: missing, key: "correctness", score: 1 });
    expect(direct.status).toBe(404);
    expect(direct.body.detail ?? direct.body.message ?? JSON.stringify(direct.body)).toMatch(new RegExp(missing));
    expect(await listed({ runIds: [missing] })).toEqual([]);
    await expect(client.updateFeedback(uuidv4(), { score: 1 })).rejects.toThrow(/404|not found/i);
  });

  it("bad input is a 4xx naming the field, with nothing stored", async () => {
    const cases: [unknown, RegExp][] = [
      [{ run_id: llm, key: "k", score: "high" }, /score/],
      [{ run_id: llm, score: 1 }, /key/],
      [{ run_id: llm, key: "" }, /key/],
      [{ run_id: "not-a-uuid", key: "k" }, /run_id/],
      [{ key: "k", session_id: uuidv4() }, /run_id/],
      [{ run_id: llm, key: "k", trace_id: other }, /trace_id/],
      [{ run_id: llm, key: "k", comparative_experiment_id: uuidv4() }, /comparative_experiment_id/],
      [{ run_id: llm, key: "k", comment: "nul \u0000 inside" }, /comment/],
    ];
    for (const [body, field] of cases) {
      const answer = await postFeedback(body);
      expect(answer.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(answer.status, JSON.stringify(body)).toBeLessThan(500);
      expect(JSON.stringify(answer.body), JSON.stringify(body)).toMatch(field);
    }
    expect((await listed({ feedbackKeys: ["k"] })).length).toBe(0);
    const id = uuidv4();
    expect((await postFeedback({ id, run_id: llm, key: "dup" })).status).toBe(200);
    expect((await postFeedback({ id, run_id: llm, key: "dup" })).status).toBe(409);
  });
});

describe("feedback in LangSmith's multipart batches", () => {
  it("a batching client's createFeedback (with a trace id) rides in the batch beside its run and is stored", async () => {
    const batching = new Client({ apiUrl: `${server.url}/tracing`, apiKey: API_KEY, callerOptions: { maxRetries: 0 } });
    const run = uuidv4();
    const tree = new RunTree({ id: run, name: "batched", run_type: "chain", inputs: {}, project_name: "feedback-project", client: batching });
    await tree.postRun();
    await tree.end({ ok: true });
    await tree.patchRun();
    const feedback = await batching.createFeedback(run, "batched_key", { score: 0.5, traceId: run, comment: "from the batch" });
    await batching.awaitPendingTraceBatches();
    expect(await client.readFeedback(feedback.id)).toMatchObject({ id: feedback.id, run_id: run, trace_id: run, score: 0.5, comment: "from the batch" });
  });

  it("a batch whose feedback names an unknown run is a 404 and stores nothing", async () => {
    const run = uuidv4();
    const missing = uuidv4();
    const feedbackId = uuidv4();
    const form = new FormData();
    const json = (value: unknown) => new Blob([JSON.stringify(value)], { type: "application/json" });
    form.append(`post.${run}`, json({ id: run, name: "lonely", run_type: "chain", start_time: new Date().toISOString() }));
    form.append(`feedback.${feedbackId}`, json({ id: feedbackId, run_id: missing, key: "k" }));
    const response = await server.request("/tracing/runs/multipart", { method: "POST", body: form });
    expect(response.status).toBe(404);
    expect(JSON.stringify(await response.json())).toContain(missing);
    expect((await server.request(`/tracing/runs/${run}`)).status).toBe(404);
    expect((await server.request(`/tracing/feedback/${feedbackId}`)).status).toBe(404);

    const badScore = new FormData();
    badScore.append(`post.${run}`, json({ id: run, name: "lonely", run_type: "chain", start_time: new Date().toISOString() }));
    badScore.append(`feedback.${feedbackId}`, json({ run_id: run, key: "k", score: "high" }));
    const refused = await server.request("/tracing/runs/multipart", { method: "POST", body: badScore });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(await refused.json())).toMatch(new RegExp(`feedback\\.${feedbackId}.*score`));
    expect((await server.request(`/tracing/runs/${run}`)).status).toBe(404);
  });

  it("runs and feedback are one transaction: a feedback refused at its write leaves the batch's runs unwritten", async () => {
    // A stored run of trace `run`; the batch patches it naming another trace (the post owns
    // trace_id, so the patch's is ignored) and attaches feedback for that other trace. Only the
    // stored row shows the mismatch, so it is found while writing, after the patch.
    const run = uuidv4();
    const otherTrace = uuidv4();
    await client.createRun({ id: run, trace_id: run, name: "judged", run_type: "chain", inputs: {}, start_time: Date.now() });
    const stamp = "20250101T000000000000Z";
    const feedbackId = uuidv4();
    // By hand: the SDK sends this body too (multipartIngestRuns with runUpdates and feedbacks),
    // but logs a refused batch instead of failing, so the status would not be seen.
    const json = (value: unknown) => new Blob([JSON.stringify(value)], { type: "application/json" });
    const form = new FormData();
    form.append(`patch.${run}`, json({ id: run, trace_id: otherTrace, dotted_order: `${stamp}${otherTrace}.${stamp}${run}`, end_time: new Date().toISOString() }));
    form.append(`patch.${run}.outputs`, json({ answer: "patched" }));
    form.append(`feedback.${feedbackId}`, json({ id: feedbackId, run_id: run, trace_id: otherTrace, key: "correctness", score: 1 }));
    const response = await server.request("/tracing/runs/multipart", { method: "POST", body: form });
    const answer = JSON.stringify(await response.json());
    expect([response.status, answer]).toEqual([422, expect.stringContaining(`is not the trace of run '${run}'`)]);
    expect((await client.readRun(run)).outputs ?? null).toBeNull();
    expect((await server.request(`/tracing/feedback/${feedbackId}`)).status).toBe(404);
  });
});

describe("feedback in GraphQL", () => {
  it("TraceRun.feedback, the traces filter by key and score, and the mutations", async () => {
    const created = await graphql(
      `mutation($input: CreateTraceFeedbackInput!) { createTraceFeedback(input: $input) { feedback { feedbackId traceRunId traceId key score comment sourceType } } }`,
      { input: { traceRunId: llm, key: "helpfulness", score: 0.8, comment: "clear" } },
    );
    expect(created.errors).toBeUndefined();
    const feedback = created.data.createTraceFeedback.feedback;
    expect(feedback).toMatchObject({ traceRunId: llm, traceId: root, key: "helpfulness", score: 0.8, comment: "clear", sourceType: "app" });

    const run = await graphql(`query($id: ID!) { traceRun(traceRunId: $id) { feedback { feedbackId key score } } }`, { id: llm });
    expect(run.data.traceRun.feedback).toContainEqual({ feedbackId: feedback.feedbackId, key: "helpfulness", score: 0.8 });

    const search = async (filter: Record<string, unknown>, rootsOnly = true) => {
      const answer = await graphql(
        `query($filter: TraceFeedbackFilter, $rootsOnly: Boolean) { traces(first: 50, feedback: $filter, rootsOnly: $rootsOnly) {
          totalCount edges { node { traceRunId feedback { key } children(first: 5) { edges { node { feedback { key score } } } } } } } }`,
        { filter, rootsOnly },
      );
      expect(answer.errors).toBeUndefined();
      return answer.data.traces as { totalCount: number; edges: { node: any }[] };
    };
    // The feedback is on the LLM call; the trace search finds its root.
    const found = await search({ key: "helpfulness" });
    expect(found.edges.map((edge) => edge.node.traceRunId)).toEqual([root]);
    expect(found.totalCount).toBe(1);
    expect(found.edges[0]!.node.children.edges[0].node.feedback).toContainEqual({ key: "helpfulness", score: 0.8 });
    expect((await search({ key: "helpfulness", scoreMin: 0.5, scoreMax: 0.9 })).totalCount).toBe(1);
    expect((await search({ key: "helpfulness", scoreMin: 0.81 })).totalCount).toBe(0);
    expect((await search({ key: "helpfulness", scoreMax: 0.79 })).totalCount).toBe(0);
    expect((await search({ key: "no-such-key" })).totalCount).toBe(0);
    expect((await search({ key: "helpfulness", anyRunOfTrace: false })).totalCount).toBe(0);
    const own = await search({ key: "helpfulness", anyRunOfTrace: false }, false);
    expect(own.edges.map((edge) => edge.node.traceRunId)).toEqual([llm]);

    const updated = await graphql(
      `mutation($input: UpdateTraceFeedbackInput!) { updateTraceFeedback(input: $input) { feedback { score comment value } } }`,
      { input: { feedbackId: feedback.feedbackId, score: 0.2, comment: null, value: { label: "terse" } } },
    );
    expect(updated.data.updateTraceFeedback.feedback).toEqual({ score: 0.2, comment: null, value: { label: "terse" } });
    expect((await search({ key: "helpfulness", scoreMin: 0.5 })).totalCount).toBe(0);

    const deleted = await graphql(`mutation($id: ID!) { deleteTraceFeedback(input: { feedbackId: $id }) { deletedFeedbackId } }`, { id: feedback.feedbackId });
    expect(deleted.data.deleteTraceFeedback.deletedFeedbackId).toBe(feedback.feedbackId);
    expect((await search({ key: "helpfulness" })).totalCount).toBe(0);
  });

  it("creating feedback on an unknown run is NOT_FOUND; a bad score is INVALID_INPUT", async () => {
    const missing = await graphql(`mutation($id: ID!) { createTraceFeedback(input: { traceRunId: $id, key: "k" }) { feedback { feedbackId } } }`, {
      id: uuidv4(),
    });
    expect(missing.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const bad = await graphql(`mutation($id: ID!) { createTraceFeedback(input: { traceRunId: $id, key: "k", score: "high" }) { feedback { feedbackId } } }`, {
      id: llm,
    });
    expect(bad.errors?.[0]?.extensions?.code).toBe("INVALID_INPUT");
    expect(bad.errors?.[0]?.message).toMatch(/score/);
  });
});
