import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { graphqlWebSocketUrl } from "./helpers.js";

/**
 * The per-operation limits of graphql/query-limits.ts over HTTP (both response types), Yoga's SSE
 * and graphql-ws, with the default limits; the deadline and the per-socket cap on a second server
 * where they are small enough to reach.
 */

let server: TestServer;
let tight: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  [server, tight] = await Promise.all([
    startTestServer(),
    startTestServer({ env: { HANGAR_GRAPHQL_DEADLINE_MS: "1", HANGAR_GRAPHQL_MAX_SUBSCRIPTIONS_PER_SOCKET: "2" } }),
  ]);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.dispose()));
});

afterAll(async () => {
  await Promise.all([server?.close(), tight?.close()]);
});

/** Two levels of 100 × 100 fan-out (issue 25: it grew the server to 4.2 GB before). */
const FAN_OUT = `{ threads(first: 100) { edges { node { assistant { threads(first: 100) { edges { node {
  assistant { threads(first: 100) { edges { node { threadId } } } } } } } } } } } }`;

/** 1,000 aliases of threads(first: 100) (issue 25: 14.8 s of CPU, the pool starved). */
const ALIAS_BOMB = `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: threads(first: 100) { edges { node { threadId } } }`).join(" ")} }`;

interface GraphqlBody {
  data?: unknown;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

async function post(target: TestServer, query: string, accept = "application/graphql-response+json", variables?: object) {
  const response = await target.request("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", accept },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, text: await response.text() };
}

async function postJson(target: TestServer, query: string, accept?: string, variables?: object) {
  const { status, text } = await post(target, query, accept, variables);
  return { status, body: JSON.parse(text) as GraphqlBody };
}

function connect(target: TestServer): Client {
  const client = createClient({ url: graphqlWebSocketUrl(target), webSocketImpl: WebSocket, retryAttempts: 0 });
  clients.push(client);
  return client;
}

/** The first result of an operation; an error message (graphql-ws rejects with its errors) as `{ errors }`. */
async function firstResult(client: Client, query: string, variables?: Record<string, unknown>): Promise<GraphqlBody> {
  try {
    for await (const result of client.iterate({ query, variables })) return result as GraphqlBody;
  } catch (errors) {
    if (Array.isArray(errors)) return { errors };
    throw errors;
  }
  throw new Error("the operation completed without a result");
}

describe("refusals before execution", () => {
  it("refuses the 100 × 100 fan-out with its cost and the limit, as 400 on both response types", async () => {
    for (const accept of ["application/graphql-response+json", "application/json"]) {
      const { status, body } = await postJson(server, FAN_OUT, accept);
      expect(status).toBe(400);
      expect(body.data).toBeUndefined();
      expect(body.errors).toHaveLength(1);
      expect(body.errors![0]!.extensions).toMatchObject({ code: "QUERY_TOO_COMPLEX", limit: "maxCost", max: 400_000 });
      // 100 × (edges + node + assistant + threads, each 100 × …): far beyond any page the console reads.
      expect(body.errors![0]!.extensions!.cost).toBeGreaterThan(1_000_000);
      expect(body.errors![0]!.message).toMatch(/cost \d+ exceeds the limit of 400000/);
    }
  });

  it("multiplies by page sizes given in variables: 13 pages of 100 × 100 pass, 14 do not", async () => {
    const level = (first: string, inner: string) => `threads(first: ${first}) { edges { node { ${inner} } } }`;
    const query = `query ($n: Int) { ${level("$n", `assistant { ${level("100", `assistant { ${level("100", "threadId")} }`)} }`)} }`;
    const within = await postJson(server, query, undefined, { n: 13 });
    expect(within).toMatchObject({ status: 200, body: { data: { threads: { edges: [] } } } });
    const beyond = await postJson(server, query, undefined, { n: 14 });
    expect(beyond.status).toBe(400);
    // 1 + 14 × (edges + node + assistant + (1 + 100 × (edges + node + assistant + (1 + 100 × 3))))
    expect(beyond.body.errors![0]!.extensions).toMatchObject({ code: "QUERY_TOO_COMPLEX", limit: "maxCost", cost: 1 + 14 * 30_404 });
  });

  it("refuses the 1,000-alias bomb while parsing, and 31 aliases while validating", async () => {
    const bomb = await postJson(server, ALIAS_BOMB);
    expect(bomb.status).toBe(400);
    expect(bomb.body.errors![0]!.extensions).toMatchObject({ code: "QUERY_TOO_COMPLEX", limit: "maxTokens", max: 2_000 });
    // (Aliases of __typename are free, as GraphQL Armor counts them.)
    const aliases = `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: threads(first: 1) { totalCount }`).join(" ")} }`;
    const refused = await postJson(server, aliases, "application/json");
    expect(refused.status).toBe(400);
    expect(refused.body.errors![0]).toMatchObject({
      message: "Query refused: Aliases limit of 30 exceeded, found 31.",
      extensions: { code: "QUERY_TOO_COMPLEX", limit: "maxAliases", max: 30 },
    });
  });

  it("refuses depth and directives beyond their limits", async () => {
    const nested = (depth: number): string => (depth === 0 ? "threadId" : `assistant { threads(first: 1) { edges { node { ${nested(depth - 1)} } } } }`);
    const deep = await postJson(server, `{ threads(first: 1) { edges { node { ${nested(7)} } } } }`);
    expect(deep.status).toBe(400);
    expect(deep.body.errors![0]!.extensions).toMatchObject({ code: "QUERY_TOO_COMPLEX", limit: "maxDepth", max: 30 });
    const directives = `{ __typename ${"@include(if: true) ".repeat(21)} }`;
    const many = await postJson(server, directives);
    expect(many.status).toBe(400);
    expect(many.body.errors![0]!.extensions).toMatchObject({ code: "QUERY_TOO_COMPLEX", limit: "maxDirectives", max: 20 });
  });

  it("refuses over Yoga's SSE and over graphql-ws the same way", async () => {
    const sse = await post(server, FAN_OUT, "text/event-stream");
    expect(sse.text).toContain('"code":"QUERY_TOO_COMPLEX"');
    expect(sse.text).not.toContain('"data"');

    const client = connect(server);
    const fanOut = await firstResult(client, FAN_OUT);
    expect(fanOut.errors![0]!.extensions).toMatchObject({ code: "QUERY_TOO_COMPLEX", limit: "maxCost" });
    const bomb = await firstResult(client, ALIAS_BOMB);
    expect(bomb.errors![0]!.extensions).toMatchObject({ code: "QUERY_TOO_COMPLEX", limit: "maxTokens" });
    // The socket survived every refusal.
    expect(await firstResult(client, "{ __typename }")).toEqual({ data: { __typename: "Query" } });
  });
});

describe("deadline", () => {
  // Mutation fields run one after another: 30 inserts take well over the 1 ms deadline. The light
  // list (cost 90) is answered at the deadline and its later inserts find no connection; the heavy
  // one (cost 15,120, each payload selecting a page) is also handed the executor's abort signal.
  const selections = { light: "threadId", heavy: "assistant { threads(first: 100) { edges { node { threadId status createdAt } } } }" };
  for (const [weight, selection] of Object.entries(selections)) {
    it(`stops a ${weight} mutation list that runs past the deadline with DEADLINE_EXCEEDED, before all of it ran`, async () => {
      const marker = crypto.randomUUID();
      const mutation = `mutation { ${Array.from({ length: 30 }, (_, i) => `m${i}: createThread(input: { metadata: { marker: "${marker}" } }) { thread { ${selection} } }`).join(" ")} }`;
      const { status, body } = await postJson(tight, mutation);
      expect(status).toBe(400);
      expect(body.errors).toHaveLength(1);
      expect(body.errors![0]).toMatchObject({ extensions: { code: "DEADLINE_EXCEEDED", deadlineMs: 1 } });
      expect(body.errors![0]!.message).toContain("deadline of 1 ms");
      const created = await tight.client.threads.search({ metadata: { marker }, limit: 100 });
      expect(created.length).toBeLessThan(30);

      const client = connect(tight);
      const overWebSocket = await firstResult(client, mutation);
      expect(overWebSocket.errors![0]!.extensions).toMatchObject({ code: "DEADLINE_EXCEEDED" });
      expect(await firstResult(client, "{ __typename }")).toEqual({ data: { __typename: "Query" } });
    });
  }
});

describe("operations per WebSocket", () => {
  it("refuses a third subscription on a socket capped at two, and admits one again after another completes", async () => {
    const thread = await tight.client.threads.create();
    const client = connect(tight);
    const query = 'subscription ($threadId: ID!) { threadEvents(threadId: $threadId, channels: ["values"]) { method } }';
    const open = () => {
      const iterator = client.iterate({ query, variables: { threadId: thread.thread_id } });
      return { iterator, first: iterator.next() };
    };
    const first = open();
    const second = open();
    await expect(open().first).rejects.toEqual([
      expect.objectContaining({ extensions: { code: "TOO_MANY_SUBSCRIPTIONS", max: 2 } }),
    ]);

    // Completing one frees its place: the fourth is admitted, and with it two are in flight again.
    await first.iterator.return?.();
    const fourth = open();
    expect((await firstResult(client, "{ __typename }")).errors?.[0]?.extensions).toMatchObject({ code: "TOO_MANY_SUBSCRIPTIONS" });
    await second.iterator.return?.();
    expect(await firstResult(client, "{ __typename }")).toEqual({ data: { __typename: "Query" } });
    await fourth.iterator.return?.();
    expect(await fourth.first).toMatchObject({ done: true });
  });
});
