import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlCountingProxy } from "../../bench/bench-kit.js";
import type { Database } from "../../src/db/database.js";
import type { Assistant } from "../../src/domain/assistant.js";
import { sql } from "../helpers/sql.js";
import { startStatementCountingServer, type StatementCountingServer } from "../helpers/statement-counting-server.js";
import type { TestDatabase } from "../helpers/test-database.js";

// Assistant and thread writes, and assistant reads by id, made in the same turn of the event loop (as concurrent requests
// are) share one statement; calls on one assistant never share one. Counted on the wire.
let counting: StatementCountingServer;
let database: TestDatabase;
let proxy: SqlCountingProxy;
let db: Database;
beforeAll(async () => {
  counting = await startStatementCountingServer();
  ({ database, proxy } = counting);
  db = counting.server.hangar.runtime.db;
});
afterAll(async () => {
  await counting?.close();
});

function newAssistant(name: string, metadata: Record<string, unknown> = {}, assistantId: string = randomUUID()): Assistant {
  const now = new Date();
  return { assistantId, graphId: "echo", name, description: null, config: {}, context: { name }, metadata, version: 1, createdAt: now, updatedAt: now, encryptionContext: null };
}

/** How many statements the work sent whose text (its first 160 characters) matches `pattern`. */
async function statementsOf(pattern: RegExp, work: () => Promise<unknown>): Promise<number> {
  proxy.reset();
  await work();
  proxy.pause();
  return [...proxy.statements].filter(([text]) => pattern.test(text)).reduce((sum, [, calls]) => sum + calls, 0);
}

const BATCH_WRITE = /jsonb_to_recordset/;

describe("Database.assistantInserts", () => {
  it("stores eight new assistants and their version 1 in one statement", async () => {
    const assistants = Array.from({ length: 8 }, (_, i) => newAssistant(`batch-${i}`));
    let answers: boolean[] = [];
    const statements = await statementsOf(BATCH_WRITE, async () => {
      answers = await Promise.all(assistants.map((assistant) => db.assistantInserts.call(assistant)));
    });
    expect(statements).toBe(1);
    expect(answers).toEqual(Array(8).fill(true));
    const ids = assistants.map((assistant) => assistant.assistantId);
    const versions = await sql(database, "SELECT name, version, context FROM assistant_versions WHERE assistant_id = ANY($1) ORDER BY name", [ids]);
    expect(versions).toEqual(assistants.map((assistant) => ({ name: assistant.name, version: 1, context: { name: assistant.name } })));
  });

  it("sends a repeated id in a statement of its own, so exactly one of the two is stored and says so", async () => {
    const id = randomUUID();
    const first = newAssistant("first", {}, id);
    const second = newAssistant("second", {}, id);
    const other = newAssistant("other");
    let answers: boolean[] = [];
    const statements = await statementsOf(BATCH_WRITE, async () => {
      answers = await Promise.all([first, second, other].map((assistant) => db.assistantInserts.call(assistant)));
    });
    expect(statements).toBe(2);
    expect(answers).toEqual([true, false, true]);
    expect(await sql(database, "SELECT name FROM assistant_versions WHERE assistant_id = $1", [id])).toEqual([{ name: "first" }]);
  });
});

describe("Database.assistantUpdates", () => {
  it("versions eight assistants in one statement, each with its own changes, and answers null outside the scope", async () => {
    const assistants = Array.from({ length: 8 }, (_, i) => newAssistant(`update-${i}`, { team: i % 2 === 0 ? "even" : "odd" }));
    await Promise.all(assistants.map((assistant) => db.assistantInserts.call(assistant)));
    let answers: (Assistant | null)[] = [];
    const statements = await statementsOf(BATCH_WRITE, async () => {
      answers = await Promise.all(
        assistants.map((assistant, i) =>
          db.assistantUpdates.call({
            assistantId: assistant.assistantId,
            scope: { team: "even" },
            changes: { name: `renamed-${i}`, context: { i }, metadata: { team: "even", i }, encryptionContext: null },
            now: new Date(),
          }),
        ),
      );
    });
    expect(statements).toBe(1);
    expect(answers.map((answer) => answer && { name: answer.name, version: answer.version, context: answer.context })).toEqual(
      assistants.map((_, i) => (i % 2 === 0 ? { name: `renamed-${i}`, version: 2, context: { i } } : null)),
    );
    const odd = assistants.filter((_, i) => i % 2 === 1).map((assistant) => assistant.assistantId);
    expect(await sql(database, "SELECT DISTINCT version FROM assistant_versions WHERE assistant_id = ANY($1)", [odd])).toEqual([{ version: 1 }]);
  });

  it("numbers updates of one assistant made together 2, 3, 4 in the order they were made", async () => {
    const assistant = newAssistant("one-row");
    await db.assistantInserts.call(assistant);
    let answers: (Assistant | null)[] = [];
    const statements = await statementsOf(BATCH_WRITE, async () => {
      answers = await Promise.all(
        [1, 2, 3].map((n) =>
          db.assistantUpdates.call({ assistantId: assistant.assistantId, scope: {}, changes: { context: { n }, metadata: {}, encryptionContext: null }, now: new Date() }),
        ),
      );
    });
    expect(statements).toBe(3);
    expect(answers.map((answer) => [answer?.version, answer?.context])).toEqual([
      [2, { n: 1 }],
      [3, { n: 2 }],
      [4, { n: 3 }],
    ]);
  });
});

describe("Database.assistantReads", () => {
  it("reads by id in one statement per scope, null for a missing id or one outside its scope", async () => {
    const red = newAssistant("red", { color: "red" });
    const blue = newAssistant("blue", { color: "blue" });
    await Promise.all([red, blue].map((assistant) => db.assistantInserts.call(assistant)));
    let answers: (Assistant | null)[] = [];
    const statements = await statementsOf(/FROM assistants/, async () => {
      answers = await Promise.all([
        db.assistantReads.call({ assistantId: red.assistantId, scope: {} }),
        db.assistantReads.call({ assistantId: blue.assistantId, scope: {} }),
        db.assistantReads.call({ assistantId: randomUUID(), scope: {} }),
        db.assistantReads.call({ assistantId: red.assistantId, scope: { color: "blue" } }),
        db.assistantReads.call({ assistantId: blue.assistantId, scope: { color: "blue" } }),
      ]);
    });
    expect(statements).toBe(2);
    expect(answers.map((answer) => answer?.name ?? null)).toEqual(["red", "blue", null, null, "blue"]);
  });
});

describe("Database.threadInserts", () => {
  it("stores threads made in one turn (a fractional ttl too) in one statement; a repeated id goes in a statement of its own and reads as existing", async () => {
    const now = new Date();
    const thread = (threadId: string, values: unknown) => ({
      threadId,
      createdAt: now,
      updatedAt: now,
      stateUpdatedAt: now,
      metadata: { values: String(values) },
      status: "idle" as const,
      config: {},
      values,
      interrupts: {},
      error: null,
      ttlMinutes: 0.5,
    });
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    let answers: boolean[] = [];
    const statements = await statementsOf(BATCH_WRITE, async () => {
      answers = await Promise.all([thread(a, "text"), thread(b, null), thread(c, [1]), thread(a, "again")].map((t) => db.threadInserts.call(t)));
    });
    expect(statements).toBe(2);
    expect(answers).toEqual([true, true, true, false]);
    const stored = await sql(database, `SELECT thread_id, "values", ttl_minutes FROM threads WHERE thread_id = ANY($1)`, [[a, b, c]]);
    expect(stored.map((row) => row.ttl_minutes)).toEqual([0.5, 0.5, 0.5]);
    expect(new Map(stored.map((row) => [row.thread_id, row.values]))).toEqual(
      new Map<unknown, unknown>([
        [a, "text"],
        [b, null],
        [c, [1]],
      ]),
    );
  });
});
