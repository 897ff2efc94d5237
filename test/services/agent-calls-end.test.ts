import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunStreamEvent } from "../../src/domain/run-event.js";
import { runRequestOf } from "../../src/domain/run-request.js";
import { createServiceContext } from "../../src/runtime.js";
import { agentCallsService, type AgentCallResult } from "../../src/services/agent-calls.service.js";
import { createRun } from "../../src/services/run-lifecycle/create-run.js";
import { sql } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// How an MCP tool call (a stateless run) learns its end. Its row is deleted with its temporary
// thread as soon as it ends, so a read of the row after the stream can find nothing: the call
// must report the end its stream heard, not the run as it was created (`pending`).
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });

async function runRows(runId: string): Promise<number> {
  const rows = await sql<{ count: number }>(server.database, "SELECT count(*)::int AS count FROM runs WHERE run_id = $1", [runId]);
  return rows[0]!.count;
}

describe("agent calls of stateless runs", () => {
  it("reports the end the stream heard when the run's row was deleted before the call read it", async () => {
    const ctx = createServiceContext(server.hangar.runtime, { kind: "anonymous" });
    const run = await createRun(ctx, runRequestOf({ threadId: null, assistantId: "echo", input: human("hi"), streamModes: ["values", "updates"] }));
    expect(run.status).toBe("pending");
    const events = agentCallsService.followRun(ctx, run);
    // The first read subscribes to the run's stream (in this turn, before the worker's claim,
    // a query away, can have started it) and waits for its first event.
    const first = await events.next();
    expect(first.done).toBe(false);
    // The caller stops reading until the run has ended and its row is gone with its thread:
    // the deletion wins the race with the call's read of the row, every time.
    await expect.poll(() => runRows(run.runId), { interval: 50 }).toBe(0);
    const seen: RunStreamEvent[] = [];
    let result: AgentCallResult;
    for (;;) {
      const next = await events.next();
      if (next.done) {
        result = next.value;
        break;
      }
      seen.push(next.value);
    }
    expect(seen.map((event) => event.event)).toContain("values");
    expect(result.run.status).toBe("success");
    expect(result.error).toBeNull();
    expect(result.values).toEqual({ messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "echo: hi" }] });
  });
});
