import path from "node:path";
import { fileURLToPath } from "node:url";
import { v4 as uuidv4 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { signUserToken } from "../helpers/user-tokens.js";

// Under custom auth, feedback follows /tracing's rule: operators (a HANGAR_API_KEYS key) only.
const AUTH_DEPLOYMENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/auth.langgraph.json");
const API_KEY = "operator-key";
let server: TestServer;
const run = uuidv4();

beforeAll(async () => {
  server = await startTestServer({ configPath: AUTH_DEPLOYMENT, apiKeys: [API_KEY] });
  const stored = await server.request("/tracing/runs", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": API_KEY },
    body: JSON.stringify({ id: run, name: "judged", run_type: "chain", start_time: Date.now() }),
  });
  expect(stored.status).toBe(202);
});

afterAll(async () => {
  await server?.close();
});

function post(pathname: string, body: unknown, headers: Record<string, string>) {
  return fetch(`${server.url}${pathname}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

describe("feedback under custom auth", () => {
  it("a user's token is refused (403, GraphQL FORBIDDEN) and nothing is stored; an operator key is accepted", async () => {
    const user = { authorization: `Bearer ${await signUserToken("alice")}` };
    const refused = await post("/tracing/feedback", { run_id: run, key: "thumbs", score: 1 }, user);
    expect(refused.status).toBe(403);
    const viaGraphql = await post(
      "/graphql",
      { query: `mutation($id: ID!) { createTraceFeedback(input: { traceRunId: $id, key: "thumbs" }) { feedback { feedbackId } } }`, variables: { id: run } },
      user,
    );
    expect(((await viaGraphql.json()) as any).errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const listed = await fetch(`${server.url}/tracing/feedback?run=${run}`, { headers: { "x-api-key": API_KEY } });
    expect(await listed.json()).toEqual([]);

    const accepted = await post("/tracing/feedback", { run_id: run, key: "thumbs", score: 1 }, { "x-api-key": API_KEY });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ run_id: run, key: "thumbs", score: 1 });
  });
});
