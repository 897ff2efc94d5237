import { randomBytes } from "node:crypto";
import dns from "node:dns/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ipaddr from "ipaddr.js";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CreateRunDocument } from "../graphql/generated/graphql.js";
import { errorCode, executeOperation } from "../graphql/helpers.js";
import { createServiceContext } from "../../src/runtime.js";
import { webhookDeliveriesService } from "../../src/services/webhook-deliveries.service.js";
import { sql } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const WEBHOOKS_DEPLOYMENT = path.resolve(here, "../fixtures/webhooks/langgraph.json");
const SECRET = `whsec_${randomBytes(32).toString("base64")}`;
const human = (content: string) => ({ messages: [{ role: "user", content }] });

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});
async function receiver(options: Parameters<typeof startWebhookReceiver>[0] = {}): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver(options);
  receivers.push(started);
  return started;
}

type OutboxRow = { run_id: string; attempts: number; last_error: string | null; gave_up: boolean };
const outbox = (server: TestServer) =>
  sql<OutboxRow>(server.database, "SELECT run_id, attempts, last_error, gave_up_at IS NOT NULL AS gave_up FROM webhook_deliveries");

describe("webhook deliveries", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      configPath: WEBHOOKS_DEPLOYMENT,
      env: { HANGAR_WEBHOOK_SECRET: SECRET, HANGAR_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1/32" },
    });
  });
  afterAll(() => server.close());

  it("POSTs the finished run, signed in the Standard Webhooks format, with langgraph.json headers, retrying a failing receiver", async () => {
    const hooks = await receiver({ answer: (n) => ({ status: n === 1 ? 503 : 200 }) }); // the first attempt fails
    const thread = await server.client.threads.create();
    const run = await server.client.runs.create(thread.thread_id, "echo", { input: human("hook"), webhook: hooks.url("/done?source=hangar") });
    await server.client.runs.join(thread.thread_id, run.run_id);
    await expect.poll(() => hooks.received.length, { timeout: 15_000 }).toBe(2);

    const [failed, delivered] = hooks.received as [(typeof hooks.received)[0], (typeof hooks.received)[0]];
    // What the receiver's Standard Webhooks library accepts: signature, id, timestamp.
    const payload = new Webhook(SECRET).verify(delivered.body, delivered.headers);
    expect(payload).toMatchObject({ run_id: run.run_id, thread_id: thread.thread_id, assistant_id: run.assistant_id, status: "success" });
    // One stamp for the run's end: the webhook names the updated_at the run was recorded with.
    expect((payload as { updated_at: string }).updated_at).toBe((await server.client.runs.get(thread.thread_id, run.run_id)).updated_at);
    expect(delivered.path).toBe("/done?source=hangar");
    expect(delivered.headers["content-type"]).toBe("application/json");
    expect(delivered.headers.authorization).toBe("Bearer fixture-token"); // webhooks.headers, ${{ env.LG_WEBHOOK_TOKEN }}
    // One message id across retries (receivers drop duplicates by it); each attempt signed anew.
    expect(failed.headers["webhook-id"]).toBe(delivered.headers["webhook-id"]);
    expect(() => new Webhook(SECRET).verify(delivered.body.replace("success", "error"), delivered.headers)).toThrow(/signature/i);
    await expect.poll(() => outbox(server)).toEqual([]);
  });

  it("applies langgraph.json webhooks.url at creation (here max_url_length 512)", async () => {
    const thread = await server.client.threads.create();
    const response = await server.request(`/threads/${thread.thread_id}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "echo", webhook: `https://hooks.example.com/${"x".repeat(600)}` }),
    });
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toMatch(/^webhook is 626 characters long; the limit is 512/);
    expect(await server.client.runs.list(thread.thread_id)).toEqual([]);
  });

  it("keeps a delivery that gave up for a week, then the sweep deletes it; pending ones stay", async () => {
    await sql(
      server.database,
      `INSERT INTO webhook_deliveries (run_id, url, body, next_attempt_at, gave_up_at) VALUES
         (gen_random_uuid(), 'https://old.example/hook', '{}', now(), now() - interval '8 days'),
         (gen_random_uuid(), 'https://recent.example/hook', '{}', now(), now() - interval '1 day'),
         (gen_random_uuid(), 'https://later.example/hook', '{}', now() + interval '1 hour', NULL)`,
    );
    const ctx = createServiceContext(server.hangar.runtime, { kind: "anonymous" });
    expect(await webhookDeliveriesService.purgeGivenUp(ctx)).toBe(1);
    expect((await sql<{ url: string }>(server.database, "SELECT url FROM webhook_deliveries ORDER BY url")).map((row) => row.url)).toEqual([
      "https://later.example/hook",
      "https://recent.example/hook",
    ]);
    await sql(server.database, "DELETE FROM webhook_deliveries");
  });

  it("gives up at once on a redirect, without following it", async () => {
    const target = await receiver();
    const redirecting = await receiver({ answer: () => ({ status: 307, headers: { location: target.url("/elsewhere") } }) });
    const thread = await server.client.threads.create();
    const run = await server.client.runs.create(thread.thread_id, "echo", { input: human("hop"), webhook: redirecting.url("/hook") });
    await server.client.runs.join(thread.thread_id, run.run_id);
    await expect.poll(() => outbox(server), { timeout: 10_000 }).toEqual([
      { run_id: run.run_id, attempts: 1, last_error: expect.stringMatching(/307.*do not follow redirects/), gave_up: true },
    ]);
    expect(redirecting.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
    await sql(server.database, "DELETE FROM webhook_deliveries");
  });
});

describe("webhooks cannot be turned against the server's network", () => {
  let server: TestServer;
  beforeAll(async () => {
    // 127.0.0.2 is loopback too (all of 127/8 is): allowed here only to host a receiver that redirects.
    server = await startTestServer({ env: { HANGAR_WEBHOOK_SECRET: SECRET, HANGAR_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32" } });
  });
  afterAll(() => server.close());

  const refusedAtCreation = [
    "http://127.0.0.1:2024/hook",
    "http://[::1]:2024/hook",
    "http://169.254.169.254/latest/meta-data/iam/",
    "http://10.0.0.1/hook",
    "http://localhost:2024/hook",
    "http://internal.localhost/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://0.0.0.0:2024/hook",
  ];

  it.each(refusedAtCreation)("refuses %s at run and cron creation (422 naming webhook), creating nothing", async (webhook) => {
    const thread = await server.client.threads.create();
    const post = (pathname: string, body: object) =>
      server.request(pathname, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    for (const [pathname, body] of [
      [`/threads/${thread.thread_id}/runs`, { assistant_id: "echo", input: human("x"), webhook }],
      [`/threads/${thread.thread_id}/runs/wait`, { assistant_id: "echo", input: human("x"), webhook }],
      ["/runs/batch", [{ assistant_id: "echo", input: human("fine") }, { assistant_id: "echo", input: human("x"), webhook }]],
      ["/runs/crons", { assistant_id: "echo", schedule: "* * * * *", webhook }],
    ] as const) {
      const response = await post(pathname, body);
      expect(response.status, pathname).toBe(422);
      expect((await response.json()).detail, pathname).toMatch(/^webhook\b/);
    }
    const graphql = await executeOperation(server, CreateRunDocument, { input: { threadId: thread.thread_id, assistantId: "echo", webhook } });
    expect(errorCode(graphql)).toBe("INVALID_INPUT");
    expect(graphql.errors?.[0]?.message).toMatch(/^webhook\b/);
    expect(await sql(server.database, "SELECT count(*)::int AS n FROM runs")).toEqual([{ n: 0 }]);
    expect(await sql(server.database, "SELECT count(*)::int AS n FROM crons")).toEqual([{ n: 0 }]);
  });

  it("refuses at delivery a hostname that resolves to a non-public address (checked after DNS, on the connection itself)", async () => {
    const hostname = os.hostname();
    const addresses = await dns.lookup(hostname, { all: true });
    // Precondition of this machine: its own name resolves to itself (/etc/hosts: loopback, or a private address).
    expect(addresses.every(({ address }) => ipaddr.process(address).range() !== "unicast"), JSON.stringify(addresses)).toBe(true);
    const hooks = await receiver({ host: "0.0.0.0" });
    const thread = await server.client.threads.create();
    const webhook = `http://${hostname}:${hooks.port}/hook`;
    const run = await server.client.runs.create(thread.thread_id, "echo", { input: human("dns"), webhook });
    await server.client.runs.join(thread.thread_id, run.run_id);
    await expect.poll(() => outbox(server), { timeout: 10_000 }).toEqual([
      { run_id: run.run_id, attempts: 1, last_error: expect.stringMatching(new RegExp(`${hostname} resolves to .*HANGAR_WEBHOOK_ALLOWED_NETWORKS`)), gave_up: true },
    ]);
    expect(hooks.received).toHaveLength(0);
    await sql(server.database, "DELETE FROM webhook_deliveries");
  });

  it("does not follow a redirect from an allowed receiver to loopback", async () => {
    const loopback = await receiver({ host: "127.0.0.1" });
    const allowed = await receiver({ host: "127.0.0.2", answer: () => ({ status: 302, headers: { location: loopback.url("/admin") } }) });
    const thread = await server.client.threads.create();
    const run = await server.client.runs.create(thread.thread_id, "echo", { input: human("bounce"), webhook: allowed.url("/hook") });
    await server.client.runs.join(thread.thread_id, run.run_id);
    await expect.poll(() => outbox(server), { timeout: 10_000 }).toEqual([
      { run_id: run.run_id, attempts: 1, last_error: expect.stringMatching(/302/), gave_up: true },
    ]);
    expect(allowed.received).toHaveLength(1);
    expect(new Webhook(SECRET).verify(allowed.received[0]!.body, allowed.received[0]!.headers)).toMatchObject({ run_id: run.run_id });
    expect(loopback.received).toHaveLength(0);
    await sql(server.database, "DELETE FROM webhook_deliveries");
  });
});
