import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Client } from "@langchain/langgraph-sdk";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { sql } from "../helpers/sql.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { startWebhookReceiver, unusedPort } from "../helpers/webhook-receiver.js";
import { CLI_CWD, cliArgs } from "../helpers/cli-process.js";

const SECRET = `whsec_${randomBytes(32).toString("base64")}`;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("the webhook outbox", () => {
  it("delivers a webhook queued before the server process was SIGKILLed, after a restart", { timeout: 180_000 }, async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.retire());
    // The receiver is down at first: the webhook is queued and its first attempt fails.
    const port = await unusedPort();
    const first = await spawnServer(database);
    const client = new Client({ apiUrl: first.url, callerOptions: { maxRetries: 0 } } as never);
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "echo", {
      input: { messages: [{ role: "user", content: "survive" }] },
      webhook: `http://127.0.0.1:${port}/hook`,
    });
    await client.runs.join(thread.thread_id, run.run_id);
    await expect
      .poll(() => sql<{ attempts: number; failed: boolean }>(database, "SELECT attempts, last_error IS NOT NULL AS failed FROM webhook_deliveries"), {
        timeout: 15_000,
      })
      .toEqual([{ attempts: 1, failed: true }]);
    first.process.kill("SIGKILL"); // no shutdown path runs

    const hooks = await startWebhookReceiver({ port });
    cleanups.push(() => hooks.close());
    await spawnServer(database);
    await expect.poll(() => hooks.received.length, { timeout: 60_000 }).toBe(1);
    expect(new Webhook(SECRET).verify(hooks.received[0]!.body, hooks.received[0]!.headers)).toMatchObject({
      run_id: run.run_id,
      status: "success",
    });
    await expect.poll(() => sql(database, "SELECT * FROM webhook_deliveries")).toEqual([]);
  });
});

/** `hangar serve` as a real child process (API, worker and webhooks in one), killed at cleanup if still alive. */
async function spawnServer(database: TestDatabase): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(
    process.execPath,
    cliArgs(["serve", "--config", "test/fixtures/langgraph.json", "--port", "0"]),
    {
      cwd: CLI_CWD,
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        LOG_LEVEL: "info",
        HANGAR_SCHEMAS_FROM_TYPES: "false",
        HANGAR_WEBHOOK_SECRET: SECRET,
        HANGAR_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1/32",
      },
    },
  );
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      const running = output.split("\n").find((line) => line.includes("Hangar is running"));
      if (running) resolve((JSON.parse(running) as { url: string }).url);
    });
    child.on("exit", () => reject(new Error(`server exited early: ${output}`)));
  });
  return { url, process: child };
}
