import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";

// langgraph.json `encryption.path` (examples/encryption/encryption.ts: AES-256-GCM, key in
// ENCRYPTION_KEY, read on every call; through test/fixtures/encryption/checkpoint-failing.ts): checkpoint blobs are ciphertext in PostgreSQL, plaintext
// through the SDK; a wrong or missing key is a clear error and writes nothing.
const ENCRYPTED_DEPLOYMENT = path.resolve("test/fixtures/encryption/langgraph.json");
const KEY = randomBytes(32).toString("base64");
const OTHER_KEY = randomBytes(32).toString("base64");
const SECRET = `secret-${randomBytes(8).toString("hex")}`;

let database: TestDatabase;
let sql: pg.Client;
let plainThreadId: string;

async function echo(server: TestServer, content: string) {
  const thread = await server.client.threads.create();
  const run = await server.client.runs.create(thread.thread_id, "echo", { input: { messages: [{ role: "user", content }] } });
  await server.client.runs.join(thread.thread_id, run.run_id);
  return { threadId: thread.thread_id, run: await server.client.runs.get(thread.thread_id, run.run_id) };
}

async function blobRows(threadId: string): Promise<Array<{ type: string; blob: Buffer }>> {
  const { rows } = await sql.query<{ type: string; blob: Buffer }>(
    `SELECT type, blob FROM checkpoint_blobs WHERE thread_id = $1 AND blob IS NOT NULL
     UNION ALL SELECT type, blob FROM checkpoint_writes WHERE thread_id = $1`,
    [threadId],
  );
  return rows;
}

beforeAll(async () => {
  database = await createTestDatabase();
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  // Written before the deployment turned encryption on: still read as it is afterwards.
  const plain = await startTestServer({ database, configPath: FIXTURE_DEPLOYMENT });
  try {
    plainThreadId = (await echo(plain, "written in clear")).threadId;
  } finally {
    await plain.close();
  }
});

afterAll(async () => {
  delete process.env.ENCRYPTION_KEY;
  await sql?.end();
  await database?.retire();
});

describe("checkpoint encryption (langgraph.json encryption.path)", () => {
  let server: TestServer;
  let threadId: string;

  beforeAll(async () => {
    process.env.ENCRYPTION_KEY = KEY;
    server = await startTestServer({ database, configPath: ENCRYPTED_DEPLOYMENT });
  });
  afterAll(() => server?.close());

  it("stores channel values and pending writes as ciphertext, and reads them back through the SDK", async () => {
    const written = await echo(server, SECRET);
    threadId = written.threadId;
    expect(written.run.status).toBe("success");

    const rows = await blobRows(threadId);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.type).toMatch(/\+encrypted$/);
      expect(row.blob.includes(SECRET)).toBe(false);
    }
    const state = await server.client.threads.getState<{ messages: Array<{ content: string }> }>(threadId);
    expect(state.values.messages.map((message) => message.content)).toEqual([SECRET, `echo: ${SECRET}`]);
    const history = await server.client.threads.getHistory(threadId);
    expect(history.length).toBeGreaterThan(1);
  });

  it("still reads checkpoints written before encryption was turned on", async () => {
    const rows = await blobRows(plainThreadId);
    expect(rows.every((row) => !row.type.endsWith("+encrypted"))).toBe(true);
    const state = await server.client.threads.getState<{ messages: Array<{ content: string }> }>(plainThreadId);
    expect(state.values.messages.at(-1)?.content).toBe("echo: written in clear");
  });

  it("answers a clear error, never data, when the key does not decrypt", async () => {
    process.env.ENCRYPTION_KEY = OTHER_KEY;
    try {
      const response = await server.request(`/threads/${threadId}/state`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({
        detail: "The encryption module's decrypt handler failed on a checkpoint channel_value; see the server log",
      });
    } finally {
      process.env.ENCRYPTION_KEY = KEY;
    }
    expect((await server.request(`/threads/${threadId}/state`)).status).toBe(200);
  });

  it("fails a run whose checkpoints cannot be encrypted, and writes none of them", async () => {
    // Checkpoints only: with the key gone, the run's kwargs could not be sealed and it would
    // never be queued (503), which json-encryption.test.ts covers.
    process.env.FAIL_CHECKPOINT_ENCRYPTION = "1";
    let failed: Awaited<ReturnType<typeof echo>>;
    try {
      failed = await echo(server, SECRET);
    } finally {
      delete process.env.FAIL_CHECKPOINT_ENCRYPTION;
    }
    expect(failed.run.status).toBe("error");
    expect(await blobRows(failed.threadId)).toEqual([]);
    const { rows } = await sql.query(`SELECT count(*)::int AS n FROM checkpoints WHERE thread_id = $1`, [failed.threadId]);
    expect(rows[0].n).toBe(0);
    const state = await server.client.threads.getState(failed.threadId);
    expect(state.values).toEqual({});
  });
});

describe("a deployment without encryption.path on encrypted checkpoints", () => {
  it("answers a clear error naming the missing key, never ciphertext", async () => {
    const { rows } = await sql.query<{ thread_id: string }>(`SELECT thread_id FROM checkpoint_blobs WHERE type LIKE '%+encrypted' LIMIT 1`);
    const plain = await startTestServer({ database, configPath: FIXTURE_DEPLOYMENT });
    try {
      const response = await plain.request(`/threads/${rows[0]!.thread_id}/state`);
      expect(response.status).toBe(500);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/is encrypted, but langgraph\.json has no encryption\.path/);
    } finally {
      await plain.close();
    }
  });
});
