import { randomUUID } from "node:crypto";
import type { Assistant, Run, Thread } from "@langchain/langgraph-sdk";

/** Resources an operator created before the requests under test. */
export interface Fixture {
  assistant: Assistant;
  thread: Thread;
  run: Run;
  cron: { cron_id: string };
}

/**
 * `handler`: the deployment's authorization handlers decide (LangGraph's resources);
 * `operator`: the trace store and the price table, which only API-key callers may use under custom
 * auth; `open`: touches no resource (who am I, schedule arithmetic, the public price list).
 */
type RefusedBy = "handler" | "operator" | "open";

export interface RestCase {
  route: string;
  path: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  /** Send the body as a LangSmith multipart ingest (its one run as `post.<id>`). */
  multipart?: true;
  refusedBy: Exclude<RefusedBy, "open">;
}

const input = { messages: [{ role: "user", content: "hi" }] };
const thread = (f: Fixture) => `/threads/${f.thread.thread_id}`;
const threadRun = (f: Fixture) => `/threads/${f.thread.thread_id}/runs/${f.run.run_id}`;
const assistant = (f: Fixture) => `/assistants/${f.assistant.assistant_id}`;
const a2aMessage = {
  jsonrpc: "2.0",
  id: 1,
  method: "message/send",
  params: { message: { kind: "message", messageId: "m1", role: "user", parts: [{ kind: "text", text: "hi" }] } },
};
const traceRun = () => ({ id: randomUUID(), name: "t", run_type: "chain", inputs: {}, start_time: new Date().toISOString() });

export const REST_CASES: RestCase[] = [
  { route: "POST /assistants", path: () => "/assistants", body: () => ({ graph_id: "echo" }), refusedBy: "handler" },
  { route: "POST /assistants/search", path: () => "/assistants/search", body: () => ({}), refusedBy: "handler" },
  { route: "POST /assistants/count", path: () => "/assistants/count", body: () => ({}), refusedBy: "handler" },
  { route: "GET /assistants/:assistant_id", path: assistant, refusedBy: "handler" },
  { route: "PATCH /assistants/:assistant_id", path: assistant, body: () => ({ name: "x" }), refusedBy: "handler" },
  { route: "DELETE /assistants/:assistant_id", path: assistant, refusedBy: "handler" },
  { route: "POST /assistants/:assistant_id/versions", path: (f) => `${assistant(f)}/versions`, body: () => ({}), refusedBy: "handler" },
  { route: "POST /assistants/:assistant_id/latest", path: (f) => `${assistant(f)}/latest`, body: () => ({ version: 1 }), refusedBy: "handler" },
  { route: "GET /assistants/:assistant_id/graph", path: (f) => `${assistant(f)}/graph`, refusedBy: "handler" },
  { route: "GET /assistants/:assistant_id/schemas", path: (f) => `${assistant(f)}/schemas`, refusedBy: "handler" },
  { route: "GET /assistants/:assistant_id/subgraphs/:namespace?", path: (f) => `${assistant(f)}/subgraphs`, refusedBy: "handler" },
  { route: "GET /threads/:thread_id/state", path: (f) => `${thread(f)}/state`, refusedBy: "handler" },
  { route: "POST /threads/:thread_id/state/checkpoint", path: (f) => `${thread(f)}/state/checkpoint`, body: () => ({ checkpoint: {} }), refusedBy: "handler" },
  { route: "GET /threads/:thread_id/state/:checkpoint_id", path: (f) => `${thread(f)}/state/${randomUUID()}`, refusedBy: "handler" },
  { route: "POST /threads/:thread_id/state", path: (f) => `${thread(f)}/state`, body: () => ({ values: input, as_node: "echo" }), refusedBy: "handler" },
  { route: "PATCH /threads/:thread_id/state", path: (f) => `${thread(f)}/state`, body: () => ({ metadata: { x: 1 } }), refusedBy: "handler" },
  { route: "POST /threads/:thread_id/history", path: (f) => `${thread(f)}/history`, body: () => ({}), refusedBy: "handler" },
  { route: "GET /threads/:thread_id/history", path: (f) => `${thread(f)}/history`, refusedBy: "handler" },
  ...["", "/stream", "/wait"].map((suffix) => ({
    route: `POST /threads/:thread_id/runs${suffix}`,
    path: (f: Fixture) => `${thread(f)}/runs${suffix}`,
    body: () => ({ assistant_id: "echo", input }),
    refusedBy: "handler" as const,
  })),
  { route: "GET /threads/:thread_id/runs", path: (f) => `${thread(f)}/runs`, refusedBy: "handler" },
  { route: "GET /threads/:thread_id/runs/:run_id", path: threadRun, refusedBy: "handler" },
  { route: "DELETE /threads/:thread_id/runs/:run_id", path: threadRun, refusedBy: "handler" },
  { route: "GET /threads/:thread_id/runs/:run_id/join", path: (f) => `${threadRun(f)}/join`, refusedBy: "handler" },
  { route: "GET /threads/:thread_id/runs/:run_id/stream", path: (f) => `${threadRun(f)}/stream`, refusedBy: "handler" },
  { route: "GET /threads/:thread_id/stream", path: (f) => `${thread(f)}/stream`, refusedBy: "handler" },
  { route: "POST /threads/:thread_id/stream/events", path: (f) => `${thread(f)}/stream/events`, body: () => ({ channels: ["values"] }), refusedBy: "handler" },
  {
    route: "POST /threads/:thread_id/commands",
    path: (f) => `${thread(f)}/commands`,
    body: () => ({ id: 1, method: "run.start", params: { assistant_id: "echo", input } }),
    refusedBy: "handler",
  },
  { route: "POST /threads/:thread_id/runs/:run_id/cancel", path: (f) => `${threadRun(f)}/cancel`, refusedBy: "handler" },
  { route: "POST /threads/:thread_id/runs/crons", path: (f) => `${thread(f)}/runs/crons`, body: () => ({ assistant_id: "echo", schedule: "0 0 1 1 *" }), refusedBy: "handler" },
  { route: "POST /threads", path: () => "/threads", body: () => ({}), refusedBy: "handler" },
  { route: "POST /threads/search", path: () => "/threads/search", body: () => ({}), refusedBy: "handler" },
  { route: "POST /threads/count", path: () => "/threads/count", body: () => ({}), refusedBy: "handler" },
  { route: "GET /threads/:thread_id", path: thread, refusedBy: "handler" },
  { route: "PATCH /threads/:thread_id", path: thread, body: () => ({ metadata: { x: 1 } }), refusedBy: "handler" },
  { route: "DELETE /threads/:thread_id", path: thread, refusedBy: "handler" },
  { route: "POST /threads/prune", path: () => "/threads/prune", body: (f) => ({ thread_ids: [f.thread.thread_id] }), refusedBy: "handler" },
  { route: "POST /threads/:thread_id/copy", path: (f) => `${thread(f)}/copy`, refusedBy: "handler" },
  { route: "POST /runs/crons", path: () => "/runs/crons", body: () => ({ assistant_id: "echo", schedule: "0 0 1 1 *" }), refusedBy: "handler" },
  { route: "POST /runs/crons/search", path: () => "/runs/crons/search", body: () => ({}), refusedBy: "handler" },
  { route: "POST /runs/crons/count", path: () => "/runs/crons/count", body: () => ({}), refusedBy: "handler" },
  { route: "PATCH /runs/crons/:cron_id", path: (f) => `/runs/crons/${f.cron.cron_id}`, body: () => ({ enabled: false }), refusedBy: "handler" },
  { route: "DELETE /runs/crons/:cron_id", path: (f) => `/runs/crons/${f.cron.cron_id}`, refusedBy: "handler" },
  ...["", "/stream", "/wait"].map((suffix) => ({
    route: `POST /runs${suffix}`,
    path: () => `/runs${suffix}`,
    body: () => ({ assistant_id: "echo", input }),
    refusedBy: "handler" as const,
  })),
  { route: "POST /runs/batch", path: () => "/runs/batch", body: () => [{ assistant_id: "echo", input }], refusedBy: "handler" },
  { route: "POST /runs/cancel", path: () => "/runs/cancel", body: (f) => ({ run_ids: [f.run.run_id] }), refusedBy: "handler" },
  { route: "GET /runs/:run_id/stream", path: (f) => `/runs/${f.run.run_id}/stream`, refusedBy: "handler" },
  { route: "PUT /store/items", path: () => "/store/items", body: () => ({ namespace: ["shared"], key: "new", value: { a: 1 } }), refusedBy: "handler" },
  { route: "GET /store/items", path: () => "/store/items?namespace=shared&key=item", refusedBy: "handler" },
  { route: "DELETE /store/items", path: () => "/store/items", body: () => ({ namespace: ["shared"], key: "item" }), refusedBy: "handler" },
  { route: "POST /store/items/search", path: () => "/store/items/search", body: () => ({ namespace_prefix: ["shared"] }), refusedBy: "handler" },
  { route: "POST /store/namespaces", path: () => "/store/namespaces", body: () => ({}), refusedBy: "handler" },
  { route: "POST /tracing/runs", path: () => "/tracing/runs", body: traceRun, refusedBy: "operator" },
  { route: "POST /otel/v1/traces", path: () => "/otel/v1/traces", body: () => ({ resourceSpans: [] }), refusedBy: "operator" },
  { route: "POST /tracing/otel/v1/traces", path: () => "/tracing/otel/v1/traces", body: () => ({ resourceSpans: [] }), refusedBy: "operator" },
  { route: "GET /metrics", path: () => "/metrics", refusedBy: "operator" },
  { route: "POST /tracing/runs/batch", path: () => "/tracing/runs/batch", body: () => ({ post: [traceRun()] }), refusedBy: "operator" },
  { route: "POST /tracing/runs/multipart", path: () => "/tracing/runs/multipart", body: traceRun, multipart: true, refusedBy: "operator" },
  { route: "PATCH /tracing/runs/:run_id", path: () => `/tracing/runs/${randomUUID()}`, body: () => ({ outputs: {} }), refusedBy: "operator" },
  { route: "GET /tracing/runs/:run_id", path: () => `/tracing/runs/${randomUUID()}`, refusedBy: "operator" },
  { route: "POST /tracing/runs/query", path: () => "/tracing/runs/query", body: () => ({}), refusedBy: "operator" },
  { route: "GET /tracing/api/v2/runs/:run_id", path: () => `/tracing/api/v2/runs/${randomUUID()}?project_id=${randomUUID()}`, refusedBy: "operator" },
  { route: "POST /tracing/api/v2/runs/query", path: () => "/tracing/api/v2/runs/query", body: () => ({}), refusedBy: "operator" },
  { route: "GET /tracing/sessions", path: () => "/tracing/sessions?name=x", refusedBy: "operator" },
  { route: "GET /tracing/sessions/:session_id", path: () => `/tracing/sessions/${randomUUID()}`, refusedBy: "operator" },
  { route: "POST /tracing/feedback", path: () => "/tracing/feedback", body: () => ({ run_id: randomUUID(), key: "k", score: 1 }), refusedBy: "operator" },
  { route: "GET /tracing/feedback", path: () => "/tracing/feedback", refusedBy: "operator" },
  { route: "GET /tracing/feedback/:feedback_id", path: () => `/tracing/feedback/${randomUUID()}`, refusedBy: "operator" },
  { route: "PATCH /tracing/feedback/:feedback_id", path: () => `/tracing/feedback/${randomUUID()}`, body: () => ({ score: 1 }), refusedBy: "operator" },
  { route: "DELETE /tracing/feedback/:feedback_id", path: () => `/tracing/feedback/${randomUUID()}`, refusedBy: "operator" },
  // A2A: reading the assistant (assistants:read) comes first, before any message is read.
  { route: "GET /a2a/:assistant_id/.well-known/agent-card.json", path: (f) => `/a2a/${f.assistant.assistant_id}/.well-known/agent-card.json`, refusedBy: "handler" },
  { route: "GET /a2a/:assistant_id/.well-known/agent.json", path: (f) => `/a2a/${f.assistant.assistant_id}/.well-known/agent.json`, refusedBy: "handler" },
  { route: "POST /a2a/:assistant_id", path: (f) => `/a2a/${f.assistant.assistant_id}`, body: () => a2aMessage, refusedBy: "handler" },
  { route: "POST /a2a/:assistant_id/", path: (f) => `/a2a/${f.assistant.assistant_id}/`, body: () => a2aMessage, refusedBy: "handler" },
];

export interface GraphqlCase {
  field: string;
  query: string;
  variables?: (f: Fixture) => Record<string, unknown>;
  refusedBy: RefusedBy;
}

/** A Relay global id, as the schema encodes them (base64 of `Type:uuid`). */
const globalId = (type: string, id: string) => Buffer.from(`${type}:${id}`).toString("base64");
const byThread = (f: Fixture) => ({ id: f.thread.thread_id });
const byRun = (f: Fixture) => ({ id: f.run.run_id });

export const GRAPHQL_CASES: GraphqlCase[] = [
  { field: "Query.assistant", query: "query($id: ID!) { assistant(assistantId: $id) { name } }", variables: (f) => ({ id: f.assistant.assistant_id }), refusedBy: "handler" },
  { field: "Query.assistants", query: "{ assistants { totalCount } }", refusedBy: "handler" },
  { field: "Query.cron", query: "query($id: ID!) { cron(cronId: $id) { schedule } }", variables: (f) => ({ id: f.cron.cron_id }), refusedBy: "handler" },
  { field: "Query.crons", query: "{ crons { totalCount } }", refusedBy: "handler" },
  { field: "Query.cronSchedulePreview", query: '{ cronSchedulePreview(schedule: "0 0 * * *") }', refusedBy: "open" },
  {
    field: "Query.expensiveTraces",
    query: 'query { expensiveTraces(from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z") { __typename } }',
    refusedBy: "operator",
  },
  { field: "Query.modelPrices", query: "{ modelPrices(first: 1) { edges { node { modelName } } } }", refusedBy: "open" },
  { field: "Query.node", query: "query($id: ID!) { node(id: $id) { id } }", variables: (f) => ({ id: globalId("Thread", f.thread.thread_id) }), refusedBy: "handler" },
  { field: "Query.nodes", query: "query($id: ID!) { nodes(ids: [$id]) { id } }", variables: (f) => ({ id: globalId("Run", f.run.run_id) }), refusedBy: "handler" },
  { field: "Query.run", query: "query($id: ID!) { run(runId: $id) { status } }", variables: byRun, refusedBy: "handler" },
  { field: "Query.storeItem", query: '{ storeItem(namespace: ["shared"], key: "item") { key } }', refusedBy: "handler" },
  { field: "Query.storeItems", query: '{ storeItems(namespacePrefix: ["shared"]) { totalCount } }', refusedBy: "handler" },
  { field: "Query.storeNamespaces", query: "{ storeNamespaces { totalCount } }", refusedBy: "handler" },
  { field: "Query.thread", query: "query($id: ID!) { thread(threadId: $id) { status } }", variables: byThread, refusedBy: "handler" },
  { field: "Query.threads", query: "{ threads { totalCount } }", refusedBy: "handler" },
  { field: "Query.trace", query: "query($id: ID!) { trace(traceId: $id) { __typename } }", variables: () => ({ id: randomUUID() }), refusedBy: "operator" },
  { field: "Query.traceRun", query: "query($id: ID!) { traceRun(traceRunId: $id) { name } }", variables: () => ({ id: randomUUID() }), refusedBy: "operator" },
  { field: "Query.traces", query: "{ traces { totalCount } }", refusedBy: "operator" },
  {
    field: "Query.usageSummary",
    query: 'query { usageSummary(from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z") { __typename } }',
    refusedBy: "operator",
  },
  { field: "Query.viewer", query: "{ viewer { identity } }", refusedBy: "open" },
  { field: "Mutation.cancelRun", query: "mutation($id: ID!) { cancelRun(input: {runId: $id}) { __typename } }", variables: byRun, refusedBy: "handler" },
  {
    field: "Mutation.continueThread",
    query: 'mutation($id: ID!) { continueThread(input: {threadId: $id, assistantId: "echo", values: {}, asNode: "echo"}) { __typename } }',
    variables: byThread,
    refusedBy: "handler",
  },
  { field: "Mutation.copyThread", query: "mutation($id: ID!) { copyThread(input: {threadId: $id}) { __typename } }", variables: byThread, refusedBy: "handler" },
  { field: "Mutation.createAssistant", query: 'mutation { createAssistant(input: {graphId: "echo"}) { __typename } }', refusedBy: "handler" },
  { field: "Mutation.createCron", query: 'mutation { createCron(input: {assistantId: "echo", schedule: "0 0 1 1 *"}) { __typename } }', refusedBy: "handler" },
  {
    field: "Mutation.createModelPrice",
    query: 'mutation { createModelPrice(input: {modelName: "m", matchPattern: "m", inputPrice: "1", outputPrice: "1"}) { __typename } }',
    refusedBy: "operator",
  },
  { field: "Mutation.createRun", query: 'mutation { createRun(input: {assistantId: "echo"}) { __typename } }', refusedBy: "handler" },
  { field: "Mutation.createThread", query: "mutation { createThread(input: {}) { __typename } }", refusedBy: "handler" },
  { field: "Mutation.deleteAssistant", query: "mutation($id: ID!) { deleteAssistant(input: {assistantId: $id}) { __typename } }", variables: (f) => ({ id: f.assistant.assistant_id }), refusedBy: "handler" },
  { field: "Mutation.deleteCron", query: "mutation($id: ID!) { deleteCron(input: {cronId: $id}) { __typename } }", variables: (f) => ({ id: f.cron.cron_id }), refusedBy: "handler" },
  {
    field: "Mutation.createTraceFeedback",
    query: 'mutation($id: ID!) { createTraceFeedback(input: {traceRunId: $id, key: "k"}) { __typename } }',
    variables: () => ({ id: randomUUID() }),
    refusedBy: "operator",
  },
  { field: "Mutation.updateTraceFeedback", query: "mutation($id: ID!) { updateTraceFeedback(input: {feedbackId: $id, score: 1}) { __typename } }", variables: () => ({ id: randomUUID() }), refusedBy: "operator" },
  { field: "Mutation.deleteTraceFeedback", query: "mutation($id: ID!) { deleteTraceFeedback(input: {feedbackId: $id}) { __typename } }", variables: () => ({ id: randomUUID() }), refusedBy: "operator" },
  { field: "Mutation.deleteModelPrice", query: "mutation($id: ID!) { deleteModelPrice(input: {modelPriceId: $id}) { __typename } }", variables: () => ({ id: randomUUID() }), refusedBy: "operator" },
  { field: "Mutation.deleteStoreItem", query: 'mutation { deleteStoreItem(input: {namespace: ["shared"], key: "item"}) { __typename } }', refusedBy: "handler" },
  { field: "Mutation.deleteThread", query: "mutation($id: ID!) { deleteThread(input: {threadId: $id}) { __typename } }", variables: byThread, refusedBy: "handler" },
  { field: "Mutation.putStoreItem", query: 'mutation { putStoreItem(input: {namespace: ["shared"], key: "k", value: {a: 1}}) { __typename } }', refusedBy: "handler" },
  {
    field: "Mutation.repriceTraces",
    query: 'mutation { repriceTraces(input: {from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z"}) { __typename } }',
    refusedBy: "operator",
  },
  { field: "Mutation.setAssistantVersion", query: "mutation($id: ID!) { setAssistantVersion(input: {assistantId: $id, version: 1}) { __typename } }", variables: (f) => ({ id: f.assistant.assistant_id }), refusedBy: "handler" },
  { field: "Mutation.updateAssistant", query: 'mutation($id: ID!) { updateAssistant(input: {assistantId: $id, name: "x"}) { __typename } }', variables: (f) => ({ id: f.assistant.assistant_id }), refusedBy: "handler" },
  { field: "Mutation.updateCron", query: "mutation($id: ID!) { updateCron(input: {cronId: $id, enabled: false}) { __typename } }", variables: (f) => ({ id: f.cron.cron_id }), refusedBy: "handler" },
  { field: "Mutation.updateModelPrice", query: 'mutation($id: ID!) { updateModelPrice(input: {modelPriceId: $id, modelName: "x"}) { __typename } }', variables: () => ({ id: randomUUID() }), refusedBy: "operator" },
  { field: "Mutation.updateThread", query: "mutation($id: ID!) { updateThread(input: {threadId: $id, metadata: {x: 1}}) { __typename } }", variables: byThread, refusedBy: "handler" },
  { field: "Mutation.updateThreadState", query: 'mutation($id: ID!) { updateThreadState(input: {threadId: $id, values: {}, asNode: "echo"}) { __typename } }', variables: byThread, refusedBy: "handler" },
  { field: "Subscription.runEvents", query: "subscription($id: ID!) { runEvents(runId: $id) { event } }", variables: byRun, refusedBy: "handler" },
  { field: "Subscription.threadEvents", query: 'subscription($id: ID!) { threadEvents(threadId: $id, channels: ["values"]) { method } }', variables: byThread, refusedBy: "handler" },
];
