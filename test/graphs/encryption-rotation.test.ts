import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { CONDITION_TIMEOUT_MS } from "../helpers/condition-timeout.js";

// langgraph.json `encryption` with handlers that version their key (test/fixtures/encryption/
// rotating-json.ts): the X-Encryption-Context header becomes the context writes are sealed with
// (no custom auth: no context handler runs), and a decrypt.json that answers LangGraph's
// DecryptResult shape ({plaintext, replacement}) after a key rotation has its replacement stored
// in place of the old ciphertext, for every kind of row it covers.
const DEPLOYMENT = path.resolve("test/fixtures/encryption/rotating.langgraph.json");

let database: TestDatabase;
let sql: pg.Client;
let server: TestServer;
let client: Client;

async function field(table: string, column: string, where: string, value: unknown): Promise<Record<string, unknown>> {
  const { rows } = await sql.query(`SELECT "${column}" AS field FROM ${table} WHERE ${where} = $1`, [value]);
  expect(rows).toHaveLength(1);
  return rows[0].field;
}

/** Polls until the stored field's key is sealed with `version`: replacements are stored after the read answers. */
async function sealedWith(version: string, read: () => Promise<Record<string, unknown>>, key: string): Promise<string> {
  let value = String((await read())[key]);
  for (let waited = 0; !value.startsWith(`${version}:`) && waited < CONDITION_TIMEOUT_MS; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = String((await read())[key]);
  }
  return value;
}

beforeAll(async () => {
  delete process.env.ROTATING_KEY_VERSION;
  database = await createTestDatabase();
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  server = await startTestServer({ database, configPath: DEPLOYMENT });
  client = new Client({ apiUrl: server.url });
});

afterAll(async () => {
  await server?.close();
  delete process.env.ROTATING_KEY_VERSION;
  await sql?.end();
  await database?.retire();
});

describe("X-Encryption-Context", () => {
  it("is the context a request's writes are sealed with and stored with, as JSON or base64 JSON", async () => {
    const plain = await fetch(`${server.url}/threads`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-encryption-context": JSON.stringify({ tenant: "acme" }) },
      body: JSON.stringify({ metadata: { topic: "hello" } }),
    });
    expect(plain.status).toBe(200);
    const { thread_id: threadId } = (await plain.json()) as { thread_id: string };
    const { rows } = await sql.query("SELECT metadata, encryption_context FROM threads WHERE thread_id = $1", [threadId]);
    expect(rows[0].encryption_context).toEqual({ tenant: "acme" });
    expect(rows[0].metadata.topic).toMatch(/^v1:\{"tenant":"acme"\}:/);

    const encoded = Buffer.from(JSON.stringify({ tenant: "globex", tier: 2 })).toString("base64");
    const withHeader = new Client({ apiUrl: server.url, defaultHeaders: { "x-encryption-context": encoded } });
    const run = await withHeader.runs.wait(null, "echo", { input: { messages: [{ role: "user", content: "hi" }] }, metadata: { note: "n" } } as never);
    expect(run).toBeTruthy();
    const stored = await sql.query("SELECT metadata, encryption_context FROM runs ORDER BY created_at DESC LIMIT 1");
    expect(stored.rows[0].encryption_context).toEqual({ tenant: "globex", tier: 2 });
    expect(stored.rows[0].metadata.note).toMatch(/^v1:\{"tenant":"globex","tier":2\}:/);
  });

  it("answers 422 naming the header when it is not a flat JSON object, and writes nothing", async () => {
    // Counted from the newest thread now: the stateless run's thread above may still be going.
    const newest = (await sql.query("SELECT max(created_at) AS at FROM threads")).rows[0].at;
    for (const value of ["not json", "[1,2]", JSON.stringify({ nested: { a: 1 } })]) {
      const response = await fetch(`${server.url}/threads`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-encryption-context": value },
        body: JSON.stringify({ metadata: { topic: "x" } }),
      });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/^X-Encryption-Context: /);
    }
    expect((await sql.query("SELECT count(*)::int AS n FROM threads WHERE created_at > $1", [newest])).rows[0].n).toBe(0);
  });
});

describe("key rotation: decrypt.json's replacement ciphertext (LangGraph's DecryptResult)", () => {
  it("stores the replacement in place of thread, run, cron, assistant and store ciphertext, and answers the plaintext", async () => {
    process.env.ROTATING_KEY_VERSION = "v1";
    const thread = await client.threads.create({ metadata: { topic: "t" } });
    const run = await client.runs.create(thread.thread_id, "echo", { input: { messages: [{ role: "user", content: "hi" }] }, metadata: { note: "r" } });
    await client.runs.join(thread.thread_id, run.run_id);
    const cron = await client.crons.createForThread(thread.thread_id, "echo", { schedule: "0 3 * * *", metadata: { topic: "c" } });
    const assistant = await client.assistants.create({ graphId: "echo", metadata: { topic: "a" } });
    await client.store.putItem(["notes"], "k1", { text: "s" });
    expect(String((await field("threads", "metadata", "thread_id", thread.thread_id)).topic)).toMatch(/^v1:/);
    expect(String((await field("crons", "metadata", "cron_id", cron.cron_id)).topic)).toMatch(/^v1:/);

    process.env.ROTATING_KEY_VERSION = "v2";
    expect((await client.threads.get(thread.thread_id)).metadata).toMatchObject({ topic: "t" });
    expect(await sealedWith("v2", () => field("threads", "metadata", "thread_id", thread.thread_id), "topic")).toMatch(/^v2:/);
    expect(await sealedWith("v2", () => field("threads", "values", "thread_id", thread.thread_id), "messages")).toMatch(/^v2:/);

    expect((await client.runs.get(thread.thread_id, run.run_id)).metadata).toMatchObject({ note: "r" });
    expect(await sealedWith("v2", () => field("runs", "metadata", "run_id", run.run_id), "note")).toMatch(/^v2:/);
    expect(await sealedWith("v2", () => field("runs", "kwargs", "run_id", run.run_id), "input")).toMatch(/^v2:/);

    const [found] = await client.crons.search({ threadId: thread.thread_id });
    expect(found?.metadata).toMatchObject({ topic: "c" });
    expect(await sealedWith("v2", () => field("crons", "metadata", "cron_id", cron.cron_id), "topic")).toMatch(/^v2:/);

    expect((await client.assistants.get(assistant.assistant_id)).metadata).toMatchObject({ topic: "a" });
    expect(await sealedWith("v2", () => field("assistants", "metadata", "assistant_id", assistant.assistant_id), "topic")).toMatch(/^v2:/);

    expect((await client.store.getItem(["notes"], "k1"))?.value).toEqual({ text: "s" });
    expect(await sealedWith("v2", () => field("store_items", "value", "key", "k1"), "text")).toMatch(/^v2:/);

    // Read again: the stored ciphertext is current, the plaintext the same.
    expect((await client.threads.get(thread.thread_id)).metadata).toMatchObject({ topic: "t" });
  });
});
