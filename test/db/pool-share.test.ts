import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SharedPool, withPoolShare } from "../../src/db/pool-share.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { endPool } from "../helpers/test-pool.js";

// The share's own rules, on a real pool: at most `max` clients at once inside a share, a waiter is
// served when a client comes back, and a wait ends with the signal's reason.
let database: TestDatabase;
let pool: SharedPool;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new SharedPool({ connectionString: database.url, max: 4 });
});
afterAll(async () => {
  if (pool) await endPool(pool);
  await database?.retire();
});

describe("withPoolShare", () => {
  it("holds at most `max` clients at once; the next connect waits for one to come back", async () => {
    await withPoolShare(2, undefined, async () => {
      const first = await pool.connect();
      const second = await pool.connect();
      let thirdConnected = false;
      const third = pool.connect().then((client) => {
        thirdConnected = true;
        return client;
      });
      // The pool has two more connections, but the share does not: the third waits in the share,
      // not in the pool's own queue, and has not asked the pool for a connection.
      await Promise.resolve();
      expect({ thirdConnected, inPoolQueue: pool.waitingCount, clients: pool.totalCount }).toEqual({ thirdConnected: false, inPoolQueue: 0, clients: 2 });
      first.release();
      const client = await third;
      expect(thirdConnected).toBe(true);
      second.release();
      client.release();
    });
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });

  it("ends a wait with the signal's reason, and gives the place back when connecting fails", async () => {
    const controller = new AbortController();
    await withPoolShare(1, controller.signal, async () => {
      const held = await pool.connect();
      const waiting = pool.connect();
      controller.abort(new Error("deadline"));
      await expect(waiting).rejects.toThrow("deadline");
      held.release();
    });
    // A new share of one, whose only place must be free again after the aborted wait.
    await withPoolShare(1, undefined, async () => {
      const rows = await Promise.all([pool.query("SELECT 1 AS n"), pool.query("SELECT 2 AS n")]);
      expect(rows.map((result) => result.rows[0].n)).toEqual([1, 2]);
    });
  });
});
