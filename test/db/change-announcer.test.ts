import type pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ASSISTANTS_CHANGED_CHANNEL } from "../../src/db/change-announcer.js";
import { openDatabase, type Database } from "../../src/db/database.js";
import { createLogger } from "../../src/logger.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";

// What other processes hear of this process's changes, heard the way they hear it: LISTEN on a
// connection of its own. No waiting for time to pass: the listener sends itself a last NOTIFY
// after the announcements were flushed, and PostgreSQL delivers notifications in commit order,
// so once that one arrives every NOTIFY the announcer sent has arrived too.
let database: TestDatabase;
let db: Database;
let listener: pg.Client;
let heard: pg.Notification[] = [];
let onSentinel: (() => void) | null = null;

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDatabase({ databaseUrl: database.url, dataDir: "", poolSize: 2 }, createLogger("silent"));
  listener = await db.connectOutsidePool();
  listener.on("notification", (message) => {
    if (message.channel === "test_sentinel") onSentinel?.();
    else heard.push(message);
  });
  await listener.query(`LISTEN ${ASSISTANTS_CHANGED_CHANNEL}`);
  await listener.query("LISTEN test_sentinel");
});

afterAll(async () => {
  await listener?.end();
  await db?.close();
  await database?.retire();
});

beforeEach(() => {
  heard = [];
});

/** Every notification the announcer has sent so far, once they have all arrived. */
async function heardSoFar(): Promise<pg.Notification[]> {
  await db.flushAnnouncements();
  const sentinel = new Promise<void>((resolve) => (onSentinel = resolve));
  await listener.query("NOTIFY test_sentinel");
  await sentinel;
  return heard;
}

describe("announcing changes to other processes", () => {
  it("sends one NOTIFY for a burst of changes, from one of the pool's own connections", async () => {
    for (let change = 0; change < 20; change++) db.announceChange(ASSISTANTS_CHANGED_CHANNEL);
    const notifications = await heardSoFar();
    expect(notifications.map((message) => [message.channel, message.payload])).toEqual([[ASSISTANTS_CHANGED_CHANNEL, ""]]);
    // So the process that made the change skips it (it told its own listeners at once).
    expect(db.isOwnBackend(notifications[0]!.processId)).toBe(true);
  });

  it("sends nothing when nothing changed", async () => {
    expect(await heardSoFar()).toEqual([]);
  });

  it("announces again a change made while the previous NOTIFY is in flight (that one may commit before the change shows)", async () => {
    db.announceChange(ASSISTANTS_CHANGED_CHANNEL);
    const firstRound = db.flushAnnouncements();
    // The flushed round starts on the next turn of the event loop and sends at once.
    await new Promise((resolve) => setImmediate(resolve));
    db.announceChange(ASSISTANTS_CHANGED_CHANNEL);
    await firstRound;
    expect(await heardSoFar()).toHaveLength(2);
  });

  it("sends what is still waiting when the database closes", async () => {
    const other = await openDatabase({ databaseUrl: database.url, dataDir: "", poolSize: 1 }, createLogger("silent"));
    other.announceChange(ASSISTANTS_CHANGED_CHANNEL);
    await other.close();
    expect(await heardSoFar()).toHaveLength(1);
  });
});
