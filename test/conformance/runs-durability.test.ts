import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { untilRunValues } from "../helpers/run-progress.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { CLI_CWD, cliArgs } from "../helpers/cli-process.js";
import { createGates, type Gate } from "../helpers/gates.js";

const human = (content: string) => ({ messages: [{ role: "user", content }] });
const contents = (values: unknown) => ((values as { messages: Array<{ content: string }> }).messages ?? []).map((m) => m.content);

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serverOn(database: TestDatabase, env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startTestServer({ database, env });
  cleanups.push(() => server.close());
  return server;
}

/** A gate for the `slow` graph's last node (at a load average of 20 a first process finished the run before its shutdown handed it back). */
async function gate(): Promise<Gate> {
  const gates = await createGates();
  cleanups.push(gates.removeAll);
  return gates.gate();
}

async function sharedDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  cleanups.push(() => database.retire());
  return database;
}

// Each test starts `hangar worker` processes: ~2 s apiece on an idle machine, over 20 s measured
// with two test files at a time at a load average of 25 (past the default 30 s for the test).
const PROCESS_TEST = { timeout: 120_000 };

describe("durable runs", () => {
  it("hands an unfinished run back at shutdown; the next process resumes it from its last checkpoint", PROCESS_TEST, async () => {
    const database = await sharedDatabase();
    const first = await serverOn(database, { HANGAR_SHUTDOWN_GRACE_MS: "50" });
    const thread = await first.client.threads.create();
    const third = await gate();
    const run = await first.client.runs.create(thread.thread_id, "slow", { input: human("survive"), context: { step_ms: 250, gate_file: third.file } });
    // Shut down while the second node runs (or the third waits at its gate): after the first node's values were streamed.
    await untilRunValues(first.client, thread.thread_id, run.run_id, (values) => contents(values).includes("first done"));
    await first.close();
    await third.open();

    const second = await serverOn(database);
    const values = await second.client.runs.join(thread.thread_id, run.run_id);
    // "first done" once: the resumed attempt did not apply the input or redo the first node again.
    expect(contents(values)).toEqual(["survive", "first done", "second done", "third done"]);
    const runs = await second.request(`/threads/${thread.thread_id}/runs/${run.run_id}`).then((r) => r.json());
    expect(runs.status).toBe("success");
    const events = [];
    for await (const part of second.client.runs.joinStream(thread.thread_id, run.run_id)) events.push(part);
    const attempts = events.filter((event) => event.event === "metadata").map((event) => (event.data as { attempt: number }).attempt);
    expect(attempts).toEqual([1, 2]);
  });

  it("takes over a run whose worker process was killed, once its lease expires, and resumes it with attempt + 1", PROCESS_TEST, async () => {
    const database = await sharedDatabase();
    const api = await startTestServer({ database, roles: { api: true, worker: false } });
    cleanups.push(() => api.close());
    const worker = await spawnWorker(database, { HANGAR_RUN_LEASE_MS: "600" });
    cleanups.push(async () => void worker.kill("SIGKILL"));

    const thread = await api.client.threads.create();
    const third = await gate();
    const run = await api.client.runs.create(thread.thread_id, "slow", { input: human("crash"), context: { step_ms: 300, gate_file: third.file } });
    await waitFor(async () => (await api.client.threads.getState(thread.thread_id)).values !== undefined &&
      contents((await api.client.threads.getState(thread.thread_id)).values).includes("first done"));
    worker.kill("SIGKILL"); // no shutdown path runs: the lease simply stops being renewed
    await third.open();

    const rescuer = await serverOn(database, { HANGAR_RUN_LEASE_MS: "600" });
    const values = await rescuer.client.runs.join(thread.thread_id, run.run_id);
    expect(contents(values)).toEqual(["crash", "first done", "second done", "third done"]);
    const events = [];
    for await (const part of rescuer.client.runs.joinStream(thread.thread_id, run.run_id)) events.push(part);
    expect(events.filter((e) => e.event === "metadata").map((e) => (e.data as { attempt: number }).attempt)).toEqual([1, 2]);
  });
});


/** `hangar worker` as a real child process: it executes runs and can be killed like a crash. */
async function spawnWorker(database: TestDatabase, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    cliArgs(["worker", "--config", "test/fixtures/langgraph.json"]),
    { cwd: CLI_CWD, env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: "info", ...env } },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      if (output.includes("Hangar is running")) resolve();
    });
    child.on("exit", () => reject(new Error(`worker exited early: ${output}`)));
  });
  return child;
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
