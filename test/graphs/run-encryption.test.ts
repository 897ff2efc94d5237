import crypto, { randomBytes } from "node:crypto";
import path from "node:path";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { Client } from "@langchain/langgraph-sdk";
import { print } from "graphql";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetCronDocument, GetRunDocument } from "../graphql/generated/graphql.js";
import { makeCronsDue } from "../helpers/sql.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { signUserToken } from "../helpers/user-tokens.js";

// langgraph.json `encryption.path` (examples/encryption/encryption.ts under the README's JWT auth
// example) on runs and crons: run metadata and kwargs, cron metadata and payload are ciphertext in
// PostgreSQL, plaintext through the SDK and GraphQL, and the worker and the cron scheduler use
// the plaintext. Threads a run creates get the caller's encryption context.
const DEPLOYMENT = path.resolve("test/fixtures/encryption/json.langgraph.json");
const KEY = randomBytes(32).toString("base64");
const SECRET = `secret-${randomBytes(8).toString("hex")}`;
const CIPHERTEXT = /^encrypted:v1:[A-Za-z0-9+/=]+$/;
const human = (content: string) => ({ messages: [{ role: "user", content }] });

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
  server = await startTestServer({ database, configPath: DEPLOYMENT });
  alice = new Client({ apiUrl: server.url, defaultHeaders: { authorization: `Bearer ${aliceToken}` } });
});

afterAll(async () => {
  await server?.close();
  delete process.env.ENCRYPTION_KEY;
  await sql?.end();
  await database?.retire();
});

describe("run and cron encryption (encrypt.json on run metadata/kwargs, cron metadata/payload)", () => {
  it("seals a run's metadata and kwargs, executes it with its plaintext input, and opens it through the SDK and GraphQL", async () => {
    const thread = await alice.threads.create();
    const run = await alice.runs.create(thread.thread_id, "echo", { input: human(SECRET), metadata: { note: SECRET, run_id: "kept" } });
    await alice.runs.join(thread.thread_id, run.run_id);

    const stored = await row("runs", "run_id", run.run_id);
    expect(stored.metadata.note).toMatch(CIPHERTEXT);
    expect(stored.metadata.run_id).toBe("kept");
    expect(stored.kwargs.input).toMatch(CIPHERTEXT);
    expect(stored.kwargs.config).toMatch(CIPHERTEXT);
    expect(JSON.stringify([stored.metadata, stored.kwargs])).not.toContain(SECRET);
    expect(stored.encryption_context).toEqual({ tenant_id: "alice" });

    // The worker ran the graph on the plaintext input.
    const values = (await alice.threads.get<{ messages: Array<{ content: string }> }>(thread.thread_id)).values;
    expect(values.messages.map((message) => message.content)).toEqual([SECRET, `echo: ${SECRET}`]);

    const read = await alice.runs.get(thread.thread_id, run.run_id);
    expect(read.metadata).toMatchObject({ note: SECRET, run_id: "kept" });
    expect((read as unknown as { kwargs: { input: unknown } }).kwargs.input).toEqual(human(SECRET));
    const listed = await alice.runs.list(thread.thread_id);
    expect(listed.find((each) => each.run_id === run.run_id)?.metadata).toMatchObject({ note: SECRET });
    const { run: overGraphql } = await graphql(GetRunDocument, { runId: run.run_id });
    expect(overGraphql?.metadata).toMatchObject({ note: SECRET });
    expect((overGraphql?.kwargs as { input: unknown }).input).toEqual(human(SECRET));
    expect(overGraphql?.assistant?.graphId).toBe("echo");
  });

  it("gives a thread created by run creation the caller's encryption context, as POST /threads does", async () => {
    const created = crypto.randomUUID();
    await alice.runs.wait(created, "echo", { ifNotExists: "create", input: human(SECRET) });
    const thread = await row("threads", "thread_id", created);
    expect(thread.encryption_context).toEqual({ tenant_id: "alice" });
    expect(thread.values.messages).toMatch(CIPHERTEXT);

    // A stateless run kept after it ends: its thread too.
    // on_completion "keep" (LangGraph's server value; the SDK's type lists other names).
    const run = await alice.runs.create(null, "echo", { input: human(SECRET), onCompletion: "keep" as never });
    await alice.runs.join(run.thread_id, run.run_id);
    expect((await row("threads", "thread_id", run.thread_id)).encryption_context).toEqual({ tenant_id: "alice" });
    expect((await row("runs", "run_id", run.run_id)).kwargs.input).toMatch(CIPHERTEXT);
    const values = (await alice.threads.get<{ messages: Array<{ content: string }> }>(run.thread_id)).values;
    expect(values.messages.map((message) => message.content)).toEqual([SECRET, `echo: ${SECRET}`]);
  });

  it("starts the context handler from X-Encryption-Context: its keys are kept, the handler's own win", async () => {
    const headers = { authorization: `Bearer ${aliceToken}`, "x-encryption-context": JSON.stringify({ region: "eu", tenant_id: "bob" }) };
    const thread = await new Client({ apiUrl: server.url, defaultHeaders: headers }).threads.create({ metadata: { topic: SECRET } });
    // examples/encryption's handler spreads context.metadata, then sets tenant_id from the user.
    expect((await row("threads", "thread_id", thread.thread_id)).encryption_context).toEqual({ region: "eu", tenant_id: "alice" });
    expect((await alice.threads.get(thread.thread_id)).metadata).toMatchObject({ topic: SECRET });
  });

  it("seals a cron's metadata and payload, opens them for readers, and fires with the plaintext payload", async () => {
    const thread = await alice.threads.create();
    const cron = await alice.crons.createForThread(thread.thread_id, "echo", { schedule: "0 3 * * *", input: human(SECRET), metadata: { topic: SECRET } });
    const stored = await row("crons", "cron_id", cron.cron_id);
    expect(stored.metadata.topic).toMatch(CIPHERTEXT);
    expect(stored.payload.input).toMatch(CIPHERTEXT);
    expect(JSON.stringify([stored.metadata, stored.payload])).not.toContain(SECRET);
    expect(stored.encryption_context).toEqual({ tenant_id: "alice" });

    const [found] = (await alice.crons.search({ threadId: thread.thread_id })).filter((each) => each.cron_id === cron.cron_id);
    expect(found?.metadata).toMatchObject({ topic: SECRET });
    expect((found?.payload as { input: unknown }).input).toEqual(human(SECRET));
    // Filters compare what is stored: an encrypted key matches nothing, a clear one still does.
    expect(await alice.crons.count({ metadata: { topic: SECRET } })).toBe(0);
    expect(await alice.crons.count({ metadata: { owner: "alice" } })).toBeGreaterThanOrEqual(1);
    const { cron: overGraphql } = await graphql(GetCronDocument, { cronId: cron.cron_id });
    expect(overGraphql?.metadata).toMatchObject({ topic: SECRET });
    expect(overGraphql?.input).toEqual(human(SECRET));

    await alice.crons.update(cron.cron_id, { metadata: { topic: `${SECRET}-2` } });
    expect((await row("crons", "cron_id", cron.cron_id)).metadata.topic).toMatch(CIPHERTEXT);

    await makeCronsDue(database, [cron.cron_id]);
    let runs = await alice.runs.list(thread.thread_id);
    for (let waited = 0; runs.length === 0 && waited < 30_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      runs = await alice.runs.list(thread.thread_id);
    }
    expect(runs).toHaveLength(1);
    await alice.runs.join(thread.thread_id, runs[0]!.run_id);
    const fired = await row("runs", "run_id", runs[0]!.run_id);
    expect(fired.kwargs.input).toMatch(CIPHERTEXT);
    expect(fired.metadata.topic).toMatch(CIPHERTEXT);
    expect(fired.encryption_context).toEqual({ tenant_id: "alice" });
    const values = (await alice.threads.get<{ messages: Array<{ content: string }> }>(thread.thread_id)).values;
    expect(values.messages.map((message) => message.content)).toEqual([SECRET, `echo: ${SECRET}`]);
    expect((await alice.runs.get(thread.thread_id, runs[0]!.run_id)).metadata).toMatchObject({ topic: `${SECRET}-2`, cron_id: cron.cron_id });
  });
});
