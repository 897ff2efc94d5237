import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateCronDocument, CreateRunDocument } from "../graphql/generated/graphql.js";
import { executeOperation } from "../graphql/helpers.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

/**
 * The run-request rules live once, in domain/run-request.ts: REST and GraphQL must refuse the same
 * bad request with the same message (REST's `detail`, GraphQL's error message), and create nothing.
 */
let server: TestServer;
let threadId: string;
beforeAll(async () => {
  server = await startTestServer();
  threadId = (await server.client.threads.create()).thread_id;
});
afterAll(async () => {
  await server?.close();
});

async function restDetail(path: string, body: unknown): Promise<string> {
  const response = await server.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status, JSON.stringify(body)).toBe(422);
  return ((await response.json()) as { detail: string }).detail;
}

describe("one rule set for every transport's run request", () => {
  const runCases = [
    { name: "an empty command", rest: { input: { a: 1 }, command: { resume: null } }, graphql: { input: { a: 1 }, command: { resume: null } } },
    { name: "a command update that is no state", rest: { command: { update: "x" } }, graphql: { command: { update: "x" } } },
    { name: "after_seconds below 0", rest: { after_seconds: -1 }, graphql: { afterSeconds: -1 } },
    { name: "after_seconds past a year", rest: { after_seconds: 31_536_001 }, graphql: { afterSeconds: 31_536_001 } },
    { name: "a webhook that is no http(s) URL", rest: { webhook: "ftp://example.com/hook" }, graphql: { webhook: "ftp://example.com/hook" } },
  ];

  it.each(runCases)("createRun refuses $name alike on REST and GraphQL", async ({ rest, graphql }) => {
    const detail = await restDetail(`/threads/${threadId}/runs`, { assistant_id: "echo", ...rest });
    const stateless = await restDetail("/runs/wait", { assistant_id: "echo", ...rest });
    const result = await executeOperation(server, CreateRunDocument, { input: { threadId, assistantId: "echo", ...graphql } });
    expect(result.errors?.[0]?.extensions?.code).toBe("INVALID_INPUT");
    expect(result.errors?.[0]?.message).toBe(detail);
    expect(stateless).toBe(detail);
    expect(await server.client.runs.list(threadId)).toEqual([]);
  });

  it("a batch with one bad item is refused with the same message and queues nothing", async () => {
    const single = await restDetail("/runs", { assistant_id: "echo", after_seconds: -1 });
    const batch = await restDetail("/runs/batch", [{ assistant_id: "echo" }, { assistant_id: "echo", after_seconds: -1 }]);
    expect(batch).toBe(single);
  });

  it("createCron refuses a bad webhook alike on REST and GraphQL", async () => {
    const detail = await restDetail("/runs/crons", { assistant_id: "echo", schedule: "* * * * *", webhook: "mailto:x@y.z" });
    const result = await executeOperation(server, CreateCronDocument, {
      input: { assistantId: "echo", schedule: "* * * * *", webhook: "mailto:x@y.z" },
    });
    expect(result.errors?.[0]?.extensions?.code).toBe("INVALID_INPUT");
    expect(result.errors?.[0]?.message).toBe(detail);
    expect(await server.client.crons.search()).toEqual([]);
  });
});
