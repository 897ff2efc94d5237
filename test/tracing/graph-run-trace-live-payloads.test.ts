import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCapturedLog } from "../helpers/captured-log.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Graph payloads JSON cannot hold (a cycle through a live timer, a BigInt, a function) are stored
// as LangSmith's own client stores them, and the rest of the trace (the model call) is kept.
const here = path.dirname(fileURLToPath(import.meta.url));

const { logger, lines: logLines } = createCapturedLog();

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    configPath: path.resolve(here, "../fixtures/live-payloads/langgraph.json"),
    logger,
  });
});
afterAll(async () => {
  await server?.close();
});

interface StoredRun {
  name: string;
  run_type: string;
  inputs: Record<string, unknown> | null;
  outputs: Record<string, unknown> | null;
}

describe("graph traces whose payloads JSON cannot hold", () => {
  it("keeps every run of the trace, the model call included, with cycles and non-JSON values marked", async () => {
    const thread = await server.client.threads.create();
    let runId = "";
    const values = await server.client.runs.wait(thread.thread_id, "live_payloads", {
      input: { messages: [{ role: "user", content: "  what is a cycle?  " }] },
      onRunCreated: ({ run_id }) => {
        runId = run_id;
      },
    });
    expect(JSON.stringify(values)).toContain("what is a cycle?");

    const query = await server.request("/tracing/runs/query", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ trace: runId, limit: 100 }),
    });
    const { runs } = (await query.json()) as { runs: StoredRun[] };
    expect(runs.map((run) => run.name)).toEqual(expect.arrayContaining(["LangGraph", "call_model", "prepare_request"]));
    const llm = runs.find((run) => run.run_type === "llm");
    expect(llm).toBeDefined();

    const prepare = runs.find((run) => run.name === "prepare_request")!;
    const stored = prepare.inputs!.client as Record<string, any>;
    // The pool points back at its owner, an ancestor on the path: LangSmith's circular marker.
    expect(stored.pool.owner).toEqual({ result: "[Circular]" });
    expect(stored.pool.sockets).toEqual({ "api.example": { open: 2 } });
    expect(stored.maxTokens).toBe("4096");
    expect(stored).not.toHaveProperty("onToken");
    expect(JSON.stringify(stored.keepAlive)).toContain('{"result":"[Circular]"}');
    expect(prepare.inputs!.question).toBe("  what is a cycle?  ");
    expect(prepare.outputs!.question).toBe("what is a cycle?");
    expect(logLines.filter((line) => line.msg === "could not record graph traces")).toEqual([]);
  });
});
