import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";

/**
 * The CORS headers of answers that are not preflights (src/http/cors-policy.ts sets them once the
 * route has answered): on JSON answers, errors, SSE streams and the deployment's own routes (http.app),
 * including a response whose headers are immutable, with `http.cors` unset (any origin) and with
 * allow_origins and allow_credentials set. Preflights are covered by cors.e2e.test.ts.
 */
const fixtures = path.dirname(FIXTURE_DEPLOYMENT);
const ORIGIN = "http://page.example";
const EXPOSED = ["Content-Location", "Location", "X-Pagination-Next", "Mcp-Session-Id"];

let openServer: TestServer;
let restrictedServer: TestServer;
let configDir: string;

beforeAll(async () => {
  configDir = mkdtempSync(path.join(os.tmpdir(), "hangar-cors-headers-"));
  const restrictedConfig = path.join(configDir, "langgraph.json");
  writeFileSync(
    restrictedConfig,
    JSON.stringify({
      graphs: { echo: path.join(fixtures, "graphs/echo.ts:graph") },
      http: {
        app: path.join(fixtures, "http/app.ts:app"),
        cors: { allow_origins: [ORIGIN], allow_credentials: true, expose_headers: ["X-Extra"] },
      },
    }),
  );
  [openServer, restrictedServer] = await Promise.all([
    startTestServer({ configPath: path.join(fixtures, "http/langgraph.json") }),
    startTestServer({ configPath: restrictedConfig }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([openServer?.close(), restrictedServer?.close()]);
  if (configDir) rmSync(configDir, { recursive: true, force: true });
});

/** Every kind of answer, asked from ORIGIN: status and headers, the body read to its end. */
async function answers(server: TestServer): Promise<Record<string, Response & { text: string }>> {
  const ask = async (pathname: string, init: RequestInit = {}) => {
    const response = await fetch(`${server.url}${pathname}`, { redirect: "manual", ...init, headers: { origin: ORIGIN, "content-type": "application/json", ...init.headers } });
    return Object.assign(response, { text: await response.text() });
  };
  const created = await ask("/assistants", { method: "POST", body: JSON.stringify({ graph_id: "echo" }) });
  const thread = await server.client.threads.create();
  return {
    json: created,
    notFound: await ask("/assistants/00000000-0000-4000-8000-000000000000"),
    invalid: await ask("/assistants", { method: "POST", body: JSON.stringify({ graph_id: 7 }) }),
    stream: await ask(`/threads/${thread.thread_id}/runs/stream`, {
      method: "POST",
      body: JSON.stringify({ assistant_id: "echo", input: { messages: [{ role: "user", content: "hi" }] }, stream_mode: ["values"] }),
    }),
    customRoute: await ask("/custom/hello"),
    immutable: await ask("/custom/redirect"),
  };
}

describe("CORS headers on answers", () => {
  it("without http.cors: any origin, on every kind of answer, with what the route set kept", async () => {
    const all = await answers(openServer);
    expect(Object.fromEntries(Object.entries(all).map(([kind, response]) => [kind, response.status]))).toEqual({
      json: 200,
      notFound: 404,
      invalid: 422,
      stream: 200,
      customRoute: 200,
      immutable: 302,
    });
    for (const [kind, response] of Object.entries(all)) {
      expect({ kind, origin: response.headers.get("access-control-allow-origin") }).toEqual({ kind, origin: "*" });
      expect({ kind, exposed: response.headers.get("access-control-expose-headers")?.split(",") }).toEqual({ kind, exposed: EXPOSED });
      expect({ kind, vary: response.headers.get("vary") }).toEqual({ kind, vary: null });
      expect({ kind, credentials: response.headers.get("access-control-allow-credentials") }).toEqual({ kind, credentials: null });
    }
    expect(JSON.parse(all.json!.text)).toMatchObject({ graph_id: "echo" });
    expect(all.json!.headers.get("content-type")).toMatch(/^application\/json/);
    expect(all.stream!.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(all.stream!.text).toMatch(/event: ?values/);
    expect(all.customRoute!.headers.get("x-custom-middleware")).toBe("yes");
    expect(all.immutable!.headers.get("location")).toBe("http://127.0.0.1/elsewhere");
  });

  it("with allow_origins and allow_credentials: the listed origin, Vary: Origin, credentials, the extra exposed header", async () => {
    for (const [kind, response] of Object.entries(await answers(restrictedServer))) {
      expect({ kind, origin: response.headers.get("access-control-allow-origin") }).toEqual({ kind, origin: ORIGIN });
      expect({ kind, exposed: response.headers.get("access-control-expose-headers")?.split(",") }).toEqual({ kind, exposed: [...EXPOSED, "X-Extra"] });
      expect({ kind, vary: response.headers.get("vary") }).toEqual({ kind, vary: "Origin" });
      expect({ kind, credentials: response.headers.get("access-control-allow-credentials") }).toEqual({ kind, credentials: "true" });
    }
    const other = await fetch(`${restrictedServer.url}/info`, { headers: { origin: "http://other.example" } });
    expect(other.status).toBe(200);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expect(other.headers.get("vary")).toBe("Origin");
  });
});
