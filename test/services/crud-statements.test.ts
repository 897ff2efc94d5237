import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "../helpers/sql.js";
import type { SqlCountingProxy } from "../../bench/bench-kit.js";
import { startStatementCountingServer, type StatementCountingServer } from "../helpers/statement-counting-server.js";
import type { TestDatabase } from "../helpers/test-database.js";
import type { TestServer } from "../helpers/test-server.js";

// Round trips to PostgreSQL per CRUD operation, counted by a wire proxy between the server and
// the database (no worker or cron scheduler, so nothing else queries meanwhile). Each of these
// operations is one statement: no transaction, no read before a write.
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

/** The round trips `operation` took, with the statements it sent (shown when the count is off). */
async function roundTrips(operation: () => Promise<unknown>): Promise<{ trips: number; statements: string[] }> {
  // An earlier write's announcement to other processes (one NOTIFY, up to 50 ms after it) is not
  // this operation's; assistants.write-statements.test.ts counts those.
  await server.hangar.runtime.db.flushAnnouncements();
  proxy.reset();
  await operation();
  proxy.pause();
  return { trips: proxy.roundTrips, statements: [...proxy.statements.keys()] };
}

describe("one round trip per operation", () => {
  it("assistant reads: get, search, count and a page of versions", async () => {
    const assistant = await server.client.assistants.create({ graphId: "echo", metadata: { team: "reads" } });
    await server.client.assistants.update(assistant.assistant_id, { metadata: { team: "reads", v: 2 } });
    for (const operation of [
      () => server.client.assistants.get(assistant.assistant_id),
      () => server.client.assistants.search({ metadata: { team: "reads" }, limit: 10, offset: 0 }),
      () => server.client.assistants.count({ metadata: { team: "reads" } }),
      () => server.client.assistants.getVersions(assistant.assistant_id, { limit: 10 }),
    ]) {
      expect(await roundTrips(operation)).toMatchObject({ trips: 1 });
    }
  });

  it("setting the active version is one statement, and it answers the version's fields", async () => {
    const assistant = await server.client.assistants.create({ graphId: "echo", name: "first", metadata: { n: 1 } });
    await server.client.assistants.update(assistant.assistant_id, { name: "second", metadata: { n: 2 } });
    let active: Awaited<ReturnType<typeof server.client.assistants.setLatest>> | undefined;
    const counted = await roundTrips(async () => (active = await server.client.assistants.setLatest(assistant.assistant_id, 1)));
    expect(counted).toMatchObject({ trips: 1 });
    expect(active).toMatchObject({ version: 1, name: "first", metadata: { n: 1 } });
    expect(await server.client.assistants.get(assistant.assistant_id)).toMatchObject({ version: 1, name: "first", metadata: { n: 1 } });
  });

  it("deleting an assistant or a cron is one statement", async () => {
    const assistant = await server.client.assistants.create({ graphId: "echo" });
    expect(await roundTrips(() => server.client.assistants.delete(assistant.assistant_id))).toMatchObject({ trips: 1 });
    expect(await sql(database, "SELECT 1 FROM assistant_versions WHERE assistant_id = $1", [assistant.assistant_id])).toEqual([]);
    const thread = await server.client.threads.create();
    const cron = await server.client.crons.createForThread(thread.thread_id, "echo", { schedule: "0 0 * * *", input: {} });
    expect(await roundTrips(() => server.client.crons.delete(cron.cron_id))).toMatchObject({ trips: 1 });
  });

  it("thread reads and a metadata PATCH", async () => {
    const thread = await server.client.threads.create({ metadata: { team: "threads", keep: 1 } });
    for (const operation of [
      () => server.client.threads.get(thread.thread_id),
      () => server.client.threads.search({ metadata: { team: "threads" }, limit: 10 }),
      () => server.client.threads.count({ metadata: { team: "threads" } }),
      () => server.client.threads.update(thread.thread_id, { metadata: { added: true } }),
    ]) {
      expect(await roundTrips(operation)).toMatchObject({ trips: 1 });
    }
    expect((await server.client.threads.get(thread.thread_id)).metadata).toEqual({ team: "threads", keep: 1, added: true });
  });
});
