import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "../helpers/sql.js";
import type { SqlCountingProxy } from "../../bench/bench-kit.js";
import { startStatementCountingServer, type StatementCountingServer } from "../helpers/statement-counting-server.js";
import type { TestDatabase } from "../helpers/test-database.js";
import type { TestServer } from "../helpers/test-server.js";

// The server reaches PostgreSQL through a wire proxy that counts its statements; no worker or
// cron scheduler, so nothing else queries while a PATCH is counted.
let counting: StatementCountingServer;
let database: TestDatabase;
let proxy: SqlCountingProxy;
let server: TestServer;
beforeAll(async () => {
  counting = await startStatementCountingServer();
  ({ database, proxy, server } = counting);
});
afterAll(async () => {
  await counting?.close();
});

describe("assistants.update", () => {
  it("makes the new version and makes it active in one SQL statement", async () => {
    const assistant = await server.client.assistants.create({ graphId: "echo", name: "counted", metadata: { team: "a" } });
    proxy.reset();
    const updated = await server.client.assistants.update(assistant.assistant_id, { context: { model: "m" }, metadata: { team: "b" } });
    proxy.pause();
    const touchingAssistants = [...proxy.statements.entries()].filter(([text]) => /assistant/i.test(text));
    expect(touchingAssistants.map(([, calls]) => calls)).toEqual([1]);
    expect(updated).toMatchObject({ version: 2, name: "counted", context: { model: "m" }, metadata: { team: "b" } });
    const versions = await sql(database, "SELECT version, name, context, metadata FROM assistant_versions WHERE assistant_id = $1 ORDER BY version", [
      assistant.assistant_id,
    ]);
    expect(versions).toEqual([
      { version: 1, name: "counted", context: {}, metadata: { team: "a" } },
      { version: 2, name: "counted", context: { model: "m" }, metadata: { team: "b" } },
    ]);
  });

  it("then tells other processes in one NOTIFY of its own, after the commit, outside the write's transaction", async () => {
    const assistant = await server.client.assistants.create({ graphId: "echo" });
    const db = server.hangar.runtime.db;
    await db.flushAnnouncements();
    proxy.reset();
    await server.client.assistants.update(assistant.assistant_id, { context: { announced: true } });
    await db.flushAnnouncements();
    proxy.pause();
    const counted = [...proxy.statements.entries()];
    expect(counted.filter(([text]) => /pg_notify/i.test(text)).map(([, calls]) => calls)).toEqual([1]);
    expect(counted.filter(([text]) => /^(BEGIN|START TRANSACTION)/i.test(text))).toEqual([]);
    expect(proxy.roundTrips).toBe(2);
  });

  it("numbers racing updates of one assistant 2..N+1, each version holding what its update sent", async () => {
    const assistant = await server.client.assistants.create({ graphId: "echo" });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => server.client.assistants.update(assistant.assistant_id, { context: { writer: i } })),
    );
    expect(results.map((result) => result.version).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    const versions = await server.client.assistants.getVersions(assistant.assistant_id, { limit: 20 });
    for (const result of results) {
      expect(versions.find((version) => version.version === result.version)?.context).toEqual(result.context);
    }
    const active = await server.client.assistants.get(assistant.assistant_id);
    expect(active.version).toBe(9);
    expect(active.context).toEqual(results.find((result) => result.version === 9)!.context);
  });

  it("after going back to version 1, the next update is version N+1 and keeps the fields it does not send", async () => {
    const assistant = await server.client.assistants.create({ graphId: "echo", name: "first", description: "d1" });
    await server.client.assistants.update(assistant.assistant_id, { name: "second" });
    await server.client.assistants.update(assistant.assistant_id, { name: "third", description: "d3" });
    await server.client.assistants.setLatest(assistant.assistant_id, 1);
    const next = await server.client.assistants.update(assistant.assistant_id, { context: { after: "rollback" } });
    expect(next).toMatchObject({ version: 4, name: "first", description: "d1", context: { after: "rollback" } });
  });

  it("answers 404 for a missing assistant and writes nothing", async () => {
    const missing = "00000000-0000-4000-8000-000000000001";
    const response = await server.request(`/assistants/${missing}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ context: { x: 1 } }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ detail: expect.stringContaining(missing) });
    expect(await sql(database, "SELECT 1 FROM assistant_versions WHERE assistant_id = $1", [missing])).toEqual([]);
  });
});

describe("assistants.create", () => {
  it("stores the assistant and its version 1 in one SQL statement", async () => {
    proxy.reset();
    const created = await server.client.assistants.create({ graphId: "echo", name: "one-statement", context: { a: 1 }, metadata: { k: "v" } });
    proxy.pause();
    const touchingAssistants = [...proxy.statements.entries()].filter(([text]) => /assistant/i.test(text));
    expect(touchingAssistants.map(([, calls]) => calls)).toEqual([1]);
    const versions = await sql(database, "SELECT version, name, context, metadata FROM assistant_versions WHERE assistant_id = $1", [created.assistant_id]);
    expect(versions).toEqual([{ version: 1, name: "one-statement", context: { a: 1 }, metadata: { k: "v" } }]);
  });

  it("answers 409 for an id that exists, and if_exists do_nothing returns the existing one; neither writes a version", async () => {
    const first = await server.client.assistants.create({ graphId: "echo", name: "original" });
    const again = await server.request("/assistants", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ graph_id: "echo", assistant_id: first.assistant_id, name: "duplicate" }),
    });
    expect(again.status).toBe(409);
    const kept = await server.client.assistants.create({ graphId: "echo", assistantId: first.assistant_id, name: "ignored", ifExists: "do_nothing" });
    expect(kept).toMatchObject({ assistant_id: first.assistant_id, name: "original", version: 1 });
    expect(await sql(database, "SELECT name FROM assistant_versions WHERE assistant_id = $1", [first.assistant_id])).toEqual([{ name: "original" }]);
  });
});
