import { describe, expect, it } from "vitest";
import type { ThreadStreamEvent } from "../../src/db/sql/read-thread-events.js";
import { SharedThreadReads } from "../../src/streaming/shared-thread-reads.js";

/**
 * A thread's stored events in memory behind SharedThreadReads, recording each read (thread, from)
 * and each flush; `store(n)` appends n events. A read takes a few ms, so requests can arrive
 * while one is in flight.
 */
function recordingStore(pageSize = 1000) {
  const stored = new Map<string, ThreadStreamEvent[]>();
  const reads: Array<[string, number]> = [];
  let flushes = 0;
  let position = 0;
  const store = (threadId: string, count: number) => {
    const events = stored.get(threadId) ?? [];
    for (let index = 0; index < count; index++) {
      position++;
      events.push({ position, streamId: String(position), runId: "run", threadId, seq: events.length + 1, event: "custom", data: "{}" });
    }
    stored.set(threadId, events);
  };
  const reader = new SharedThreadReads(
    {
      flush: async () => void flushes++,
      read: async (threadId, afterPosition, limit) => {
        reads.push([threadId, afterPosition]);
        // What is stored when the read starts (the statement's snapshot), returned a little later.
        const snapshot = (stored.get(threadId) ?? []).filter((event) => event.position > afterPosition).slice(0, limit);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return snapshot;
      },
    },
    pageSize,
  );
  return { reader, store, reads, flushes: () => flushes };
}

const positions = (page: { events: ThreadStreamEvent[] }) => page.events.map((event) => event.position);

describe("SharedThreadReads", () => {
  it("serves the streams of a thread that ask in one turn with one flush and one read, each after its own position", async () => {
    const { reader, store, reads, flushes } = recordingStore();
    store("t1", 5);
    store("t2", 2);
    const pages = await Promise.all([reader.readAfter("t1", 3), reader.readAfter("t1", 0), reader.readAfter("t1", 5), reader.readAfter("t2", 5)]);
    expect(pages.map(positions)).toEqual([[4, 5], [1, 2, 3, 4, 5], [], [6, 7]]);
    expect(pages.every((page) => !page.hasMore)).toBe(true);
    // One read per thread, from the lowest position asked; one flush before each.
    expect(reads).toEqual([
      ["t1", 0],
      ["t2", 5],
    ]);
    expect(flushes()).toBe(2);
  });

  it("makes a stream that asks while a read is in flight wait for the next read, which sees what was stored meanwhile", async () => {
    const { reader, store, reads } = recordingStore();
    store("t", 2);
    const first = reader.readAfter("t", 0);
    await new Promise((resolve) => setImmediate(resolve)); // the first read is now in flight
    store("t", 1);
    const second = reader.readAfter("t", 0);
    expect(positions(await first)).toEqual([1, 2]);
    expect(positions(await second)).toEqual([1, 2, 3]);
    expect(reads).toEqual([
      ["t", 0],
      ["t", 0],
    ]);
  });

  it("pages: a full page says there is more, and a stream past its end is served by the next read rather than with nothing", async () => {
    const { reader, store, reads } = recordingStore(3);
    store("t", 5);
    const [low, high] = await Promise.all([reader.readAfter("t", 0), reader.readAfter("t", 3)]);
    expect([positions(low), low.hasMore]).toEqual([[1, 2, 3], true]);
    expect([positions(high), high.hasMore]).toEqual([[4, 5], false]);
    expect(reads).toEqual([
      ["t", 0],
      ["t", 3],
    ]);
  });

  it("fails every stream that shared a failed read, and reads again for the next ones", async () => {
    let fail = true;
    const reader = new SharedThreadReads(
      {
        flush: async () => {},
        read: async () => {
          if (fail) throw new Error("connection lost");
          return [];
        },
      },
      10,
    );
    const results = await Promise.allSettled([reader.readAfter("t", 0), reader.readAfter("t", 1)]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    await expect(reader.readAfter("t", 0)).resolves.toEqual({ events: [], hasMore: false });
  });
});
