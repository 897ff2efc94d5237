import crypto, { randomBytes } from "node:crypto";
import path from "node:path";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { Client } from "@langchain/langgraph-sdk";
import { print } from "graphql";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetStoreItemDocument, GetThreadDocument } from "../graphql/generated/graphql.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { signUserToken } from "../helpers/user-tokens.js";

// langgraph.json `encryption.path` with JSON handlers and a context handler
// (examples/encryption/encryption.ts, under the README's JWT auth example): the JSON fields
// LangGraph encrypts are ciphertext in PostgreSQL except the keys the module leaves in clear,
// plaintext through the SDK and GraphQL, sealed with the user's context (stored with the row).
const DEPLOYMENT = path.resolve("test/fixtures/encryption/json.langgraph.json");
const KEY = randomBytes(32).toString("base64");
const SECRET = `secret-${randomBytes(8).toString("hex")}`;
const CIPHERTEXT = /^encrypted:v1:[A-Za-z0-9+/=]+$/;

let database: TestDatabase;
let sql: pg.Client;
let server: TestServer;
let alice: Client;
let aliceToken: string;

async function graphql<TData, TVariables>(document: TypedDocumentNode<TData, TVariables>, variables: TVariables): Promise<TData> {
  const response = await fetch(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${aliceToken}` },
    body: JSON.stringify({ query: print(document), variables }),
  });
  const body = (await response.json()) as { data: TData; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data;
}

async function row(table: string, where: string, value: unknown): Promise<Record<string, any>> {
  const { rows } = await sql.query(`SELECT * FROM ${table} WHERE ${where} = $1`, [value]);
  expect(rows).toHaveLength(1);
  return rows[0];
}

beforeAll(async () => {
  process.env.ENCRYPTION_KEY = KEY;
  database = await createTestDatabase();
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  aliceToken = await signUserToken("alice");
});

afterAll(async () => {
  delete process.env.ENCRYPTION_KEY;
  await sql?.end();
  await database?.retire();
});

describe("JSON field encryption (encrypt.json / decrypt.json, context)", () => {
  // Closed before the next server starts on the database: its worker would take their runs.
  beforeAll(async () => {
    server = await startTestServer({ database, configPath: DEPLOYMENT });
    alice = new Client({ apiUrl: server.url, defaultHeaders: { authorization: `Bearer ${aliceToken}` } });
  });
  afterAll(() => server?.close());

  it("seals thread metadata and values, keeps the clear keys searchable, and opens both through the SDK and GraphQL", async () => {
    const thread = await alice.threads.create({ metadata: { topic: SECRET, graph_id: "echo" } });
    const run = await alice.runs.create(thread.thread_id, "echo", { input: { messages: [{ role: "user", content: SECRET }] } });
    await alice.runs.join(thread.thread_id, run.run_id);

    const stored = await row("threads", "thread_id", thread.thread_id);
    expect(stored.metadata.topic).toMatch(CIPHERTEXT);
    expect(stored.metadata.owner).toBe("alice");
    expect(stored.metadata.graph_id).toBe("echo");
    expect(stored.values.messages).toMatch(CIPHERTEXT);
    expect(JSON.stringify(stored)).not.toContain(SECRET);
    expect(stored.encryption_context).toEqual({ tenant_id: "alice" });

    const read = await alice.threads.get<{ messages: Array<{ content: string }> }>(thread.thread_id);
    expect(read.metadata).toMatchObject({ topic: SECRET, owner: "alice", graph_id: "echo" });
    expect(read.values.messages.map((message) => message.content)).toEqual([SECRET, `echo: ${SECRET}`]);
    const { thread: overGraphql } = await graphql(GetThreadDocument, { threadId: thread.thread_id });
    expect(overGraphql?.metadata).toMatchObject({ topic: SECRET });
    expect((overGraphql?.values as { messages: unknown[] }).messages).toHaveLength(2);

    const found = await alice.threads.search({ metadata: { graph_id: "echo" } });
    expect(found.map((each) => each.thread_id)).toContain(thread.thread_id);
    expect(found.find((each) => each.thread_id === thread.thread_id)?.metadata?.topic).toBe(SECRET);
    // Encrypted keys do not match filters (the ciphertext is not the value): README says so.
    expect(await alice.threads.search({ metadata: { topic: SECRET } })).toEqual([]);

    // A thread the run creates (if_not_exists) has no context yet: its values are sealed all the same.
    const created = crypto.randomUUID();
    await alice.runs.wait(created, "echo", { ifNotExists: "create", input: { messages: [{ role: "user", content: SECRET }] } });
    expect((await row("threads", "thread_id", created)).values.messages).toMatch(CIPHERTEXT);
    expect(((await alice.threads.get(created)).values as { messages: unknown[] }).messages).toHaveLength(2);

    const copy = await alice.threads.copy(thread.thread_id);
    const copied = await row("threads", "thread_id", copy.thread_id);
    expect(copied.values.messages).toMatch(CIPHERTEXT);
    expect(copied.metadata.topic).toMatch(CIPHERTEXT);
    const copyRead = await alice.threads.get<{ messages: Array<{ content: string }> }>(copy.thread_id);
    expect(copyRead.metadata?.topic).toBe(SECRET);
    expect(copyRead.values.messages.map((message) => message.content)).toEqual([SECRET, `echo: ${SECRET}`]);

    const updated = await alice.threads.update(thread.thread_id, { metadata: { note: "second" } });
    expect(updated.metadata).toMatchObject({ topic: SECRET, note: "second", owner: "alice" });
    const restored = await row("threads", "thread_id", thread.thread_id);
    expect(restored.metadata.note).toMatch(CIPHERTEXT);
    expect(restored.metadata.topic).toMatch(CIPHERTEXT);
  });

  it("seals store values with the caller's context; reads, searches on clear keys and GraphQL answer plaintext", async () => {
    await alice.store.putItem(["notes"], "n1", { text: SECRET, tenant_id: "t-1" });
    const { rows } = await sql.query("SELECT namespace, value, encryption_context FROM store_items WHERE key = 'n1'");
    expect(rows).toHaveLength(1);
    expect(rows[0].value.text).toMatch(CIPHERTEXT);
    expect(rows[0].value.tenant_id).toBe("t-1");
    expect(rows[0].encryption_context).toEqual({ tenant_id: "alice" });

    expect((await alice.store.getItem(["notes"], "n1"))?.value).toEqual({ text: SECRET, tenant_id: "t-1" });
    const found = await alice.store.searchItems(["notes"], { filter: { tenant_id: "t-1" } });
    expect(found.items.map((item) => item.value)).toEqual([{ text: SECRET, tenant_id: "t-1" }]);
    expect((await alice.store.searchItems(["notes"], { filter: { text: SECRET } })).items).toEqual([]);
    const { storeItem } = await graphql(GetStoreItemDocument, { namespace: ["notes"], key: "n1" });
    expect(storeItem?.value).toEqual({ text: SECRET, tenant_id: "t-1" });
  });

  it("hands decrypt the context stored with the row: a row moved to another tenant's context does not open", async () => {
    const thread = await alice.threads.create({ metadata: { topic: SECRET } });
    await sql.query(`UPDATE threads SET encryption_context = '{"tenant_id": "bob"}' WHERE thread_id = $1`, [thread.thread_id]);
    const response = await fetch(`${server.url}/threads/${thread.thread_id}`, { headers: { authorization: `Bearer ${aliceToken}` } });
    expect(response.status).toBe(503);
    const body = JSON.stringify(await response.json());
    expect(body).toContain("encryption module's decrypt.json handler failed on thread metadata");
    expect(body).not.toContain("Unsupported state or unable to authenticate data");
  });

  it("answers 503 naming the deployment's encryption handler when it fails, and writes nothing", async () => {
    const before = await sql.query("SELECT (SELECT count(*) FROM threads) AS threads, (SELECT count(*) FROM store_items) AS items, (SELECT count(*) FROM assistants) AS assistants");
    delete process.env.ENCRYPTION_KEY;
    try {
      const headers = { authorization: `Bearer ${aliceToken}`, "content-type": "application/json" };
      const attempts = [
        fetch(`${server.url}/threads`, { method: "POST", headers, body: JSON.stringify({ metadata: { topic: SECRET } }) }),
        fetch(`${server.url}/store/items`, { method: "PUT", headers, body: JSON.stringify({ namespace: ["notes"], key: "n2", value: { text: SECRET } }) }),
        fetch(`${server.url}/assistants`, { method: "POST", headers, body: JSON.stringify({ graph_id: "echo", metadata: { topic: SECRET } }) }),
      ];
      for (const response of await Promise.all(attempts)) {
        expect(response.status).toBe(503);
        const body = (await response.json()) as { detail: string };
        expect(body.detail).toMatch(/^The deployment's encryption module's encrypt\.json handler failed on (thread|store|assistant) (metadata|value); see the server log$/);
        expect(body.detail).not.toContain("ENCRYPTION_KEY");
      }
    } finally {
      process.env.ENCRYPTION_KEY = KEY;
    }
    const after = await sql.query("SELECT (SELECT count(*) FROM threads) AS threads, (SELECT count(*) FROM store_items) AS items, (SELECT count(*) FROM assistants) AS assistants");
    expect(after.rows).toEqual(before.rows);
  });

  it("seals assistant metadata and context, in the assistant and its versions, and opens them for readers", async () => {
    const assistant = await alice.assistants.create({ graphId: "echo", metadata: { topic: SECRET }, context: { prompt: SECRET } });
    expect((await row("assistants", "assistant_id", assistant.assistant_id)).metadata.owner).toBe("alice");
    await alice.assistants.update(assistant.assistant_id, { metadata: { topic: `${SECRET}-2` }, context: { prompt: `${SECRET}-2` } });
    const stored = await row("assistants", "assistant_id", assistant.assistant_id);
    expect(stored.metadata.topic).toMatch(CIPHERTEXT);
    expect(stored.context.prompt).toMatch(CIPHERTEXT);
    expect(stored.encryption_context).toEqual({ tenant_id: "alice" });
    const { rows: versions } = await sql.query("SELECT metadata, context FROM assistant_versions WHERE assistant_id = $1", [assistant.assistant_id]);
    expect(versions).toHaveLength(2);
    expect(JSON.stringify(versions)).not.toContain(SECRET);

    const read = await alice.assistants.get(assistant.assistant_id);
    expect(read.metadata).toMatchObject({ topic: `${SECRET}-2` });
    expect(read.context).toEqual({ prompt: `${SECRET}-2` });
    const listed = await alice.assistants.getVersions(assistant.assistant_id);
    expect(listed.map((version) => version.context)).toEqual([{ prompt: `${SECRET}-2` }, { prompt: SECRET }]);
    const found = await alice.assistants.search({ graphId: "echo" });
    expect(found.find((each) => each.assistant_id === assistant.assistant_id)?.context).toEqual({ prompt: `${SECRET}-2` });
  });
});

describe("JSON handlers that break the contract", () => {
  let misbehaving: TestServer;
  const headers = () => ({ authorization: `Bearer ${aliceToken}`, "content-type": "application/json" });
  const threadCount = async () => (await sql.query("SELECT count(*)::int AS n FROM threads")).rows[0].n as number;

  beforeAll(async () => {
    misbehaving = await startTestServer({ database, configPath: path.resolve("test/fixtures/encryption/misbehaving.langgraph.json") });
  });
  afterAll(async () => {
    delete process.env.MISBEHAVING_JSON;
    await misbehaving?.close();
  });

  it("refuses an encrypt.json that changes keys (jsonb merges work key by key): 503, nothing written", async () => {
    process.env.MISBEHAVING_JSON = "rename";
    const before = await threadCount();
    const response = await fetch(`${misbehaving.url}/threads`, { method: "POST", headers: headers(), body: JSON.stringify({ metadata: { topic: "x" } }) });
    expect(response.status).toBe(503);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/encrypt\.json handler must keep the keys it is given .*changed -"topic"/);
    expect(await threadCount()).toBe(before);
  });

  it("refuses with 422 a write whose encrypt.json encrypted a key custom auth filters on", async () => {
    process.env.MISBEHAVING_JSON = "owner";
    const before = await threadCount();
    const response = await fetch(`${misbehaving.url}/threads`, { method: "POST", headers: headers(), body: JSON.stringify({ metadata: { topic: "x" } }) });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/metadata\.owner is filtered on by custom auth/);
    expect(await threadCount()).toBe(before);
  });

  it("records a run whose values the handler cannot seal, keeps the thread's last values (never in clear) and ends its busy as error", async () => {
    process.env.MISBEHAVING_JSON = "values";
    const client = new Client({ apiUrl: misbehaving.url, defaultHeaders: { authorization: `Bearer ${aliceToken}` } });
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "echo", { input: { messages: [{ role: "user", content: SECRET }] } });
    await client.runs.join(thread.thread_id, run.run_id);
    expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
    const stored = await row("threads", "thread_id", thread.thread_id);
    expect(stored.values).toBeNull();
    // Not busy behind a finished run, and not idle either: its values are not the run's.
    const settled = await client.threads.get(thread.thread_id);
    expect(settled.status).toBe("error");
    expect(JSON.stringify(stored.error)).toContain("ThreadStateNotRecorded");
    // The next run that records its state ends the error.
    process.env.MISBEHAVING_JSON = "";
    await client.runs.wait(thread.thread_id, "echo", { input: { messages: [{ role: "user", content: "again" }] } });
    expect((await client.threads.get(thread.thread_id)).status).toBe("idle");
  });
});
