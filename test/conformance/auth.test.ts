import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ apiKeys: ["k1", "k2"] });
});

afterAll(async () => {
  await server?.close();
});

/** Plain fetch without the helper's default key. */
function fetchRaw(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, init);
}

async function expectUnauthorized(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await response.json()) as { detail: string };
  expect(Object.keys(body)).toEqual(["detail"]);
  expect(body.detail).toMatch(/API key/);
}

describe("API keys", () => {
  it("refuses REST requests without a key, and creates nothing", async () => {
    const before = await server.client.threads.count();
    await expectUnauthorized(await fetchRaw("/assistants/agent"));
    await expectUnauthorized(
      await fetchRaw("/threads", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }),
    );
    await expectUnauthorized(await fetchRaw("/no/such/route"));
    expect(await server.client.threads.count()).toBe(before);
  });

  it("refuses POST /graphql without a key", async () => {
    const response = await fetchRaw("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    await expectUnauthorized(response);
  });

  it("refuses a wrong key in either header", async () => {
    await expectUnauthorized(await fetchRaw("/assistants/agent", { headers: { "x-api-key": "k3" } }));
    await expectUnauthorized(await fetchRaw("/assistants/agent", { headers: { authorization: "Bearer k3" } }));
    await expectUnauthorized(await fetchRaw("/assistants/agent", { headers: { authorization: "k1" } }));
    const wrong = new Client({ apiUrl: server.url, apiKey: "nope", callerOptions: { maxRetries: 0 } });
    await expect(wrong.assistants.get("agent")).rejects.toMatchObject({ status: 401 });
  });

  it("accepts any configured key as x-api-key or a bearer token", async () => {
    const viaHeader = await fetchRaw("/assistants/agent", { headers: { "x-api-key": "k2" } });
    expect(viaHeader.status).toBe(200);
    expect(((await viaHeader.json()) as { graph_id: string }).graph_id).toBe("agent");
    const viaBearer = await fetchRaw("/assistants/agent", { headers: { authorization: "Bearer k1" } });
    expect(viaBearer.status).toBe(200);
    const sdk = new Client({ apiUrl: server.url, apiKey: "k2", callerOptions: { maxRetries: 0 } });
    expect((await sdk.assistants.get("echo")).graph_id).toBe("echo");
  });

  it("leaves /ok open", async () => {
    const response = await fetchRaw("/ok");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it("answers CORS preflights without a key and exposes the pagination header", async () => {
    const preflight = await fetchRaw("/assistants/search", {
      method: "OPTIONS",
      headers: { origin: "http://chat.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    const refused = await fetchRaw("/assistants/agent", { headers: { origin: "http://chat.example" } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    expect(refused.headers.get("access-control-expose-headers")).toMatch(/X-Pagination-Next/);
  });
});
