import { Client } from "langsmith";
import { RunTree } from "langsmith/run_trees";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { TracesByNameDocument } from "./generated/graphql.js";
import { executeOk } from "./helpers.js";

// traces(nameContains): the name search runs in the database, over every recorded run.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  const client = new Client({ apiUrl: `${server.url}/tracing`, apiKey: "unused", autoBatchTracing: false, callerOptions: { maxRetries: 0 } });
  for (const name of ["Support-Agent", "summarizer", "100%_done", "agent_router"]) {
    const run = new RunTree({ name, run_type: "chain", inputs: {}, client, project_name: "name-search" });
    await run.postRun();
  }
});

afterAll(async () => {
  await server?.close();
});

async function namesMatching(nameContains: string | null): Promise<string[]> {
  const { traces } = await executeOk(server, TracesByNameDocument, { nameContains });
  expect(traces.totalCount).toBe(traces.edges.length);
  return traces.edges.map((edge) => String(edge.node.name)).sort();
}

describe("traces(nameContains)", () => {
  it("matches a case-insensitive substring of the name", async () => {
    expect(await namesMatching("AGENT")).toEqual(["Support-Agent", "agent_router"]);
    expect(await namesMatching("summ")).toEqual(["summarizer"]);
    expect(await namesMatching("nothing like it")).toEqual([]);
  });

  it("takes % and _ literally, and ignores a blank search", async () => {
    expect(await namesMatching("%")).toEqual(["100%_done"]);
    expect(await namesMatching("t_r")).toEqual(["agent_router"]);
    expect(await namesMatching("  ")).toHaveLength(4);
    expect(await namesMatching(null)).toHaveLength(4);
  });
});
