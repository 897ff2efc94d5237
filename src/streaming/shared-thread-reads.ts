import type { ThreadStreamEvent } from "../db/sql/read-thread-events.js";

/** A page of a thread's stored events after a position; `hasMore`: read on after its last one. */
export interface ThreadEventPage {
  events: ThreadStreamEvent[];
  hasMore: boolean;
}

interface Waiting {
  afterPosition: number;
  resolve: (page: ThreadEventPage) => void;
  reject: (error: unknown) => void;
}

interface ThreadReads {
  waiting: Waiting[];
  isReading: boolean;
}

/**
 * A thread's stored-event reads shared by every stream of the thread in this process: the streams
 * that ask in one turn of the event loop (a bus message wakes them all in the same turn) share ONE
 * flush-and-read, starting at the lowest position asked for, and each gets what follows its own
 * position. With 100 sockets on one busy thread, each announced batch of events cost 100 identical
 * statements and 100 parses of the same rows; now it costs one (bench/protocol.ts).
 *
 * Exactly once, in order: a read serves only the requests made before it started (whoever asks
 * while a read is running waits for the next one), so every request sees everything stored before
 * it was made, as a read of its own would. A request past the end of a full page waits for the
 * next read, which starts further on, rather than being answered with nothing.
 */
export class SharedThreadReads {
  private readonly threads = new Map<string, ThreadReads>();

  constructor(
    private readonly source: {
      /** Writes this process's buffered run events, so what the bus announced can be read. */
      flush(): Promise<void>;
      /** The thread's stored events after a position, in order, at most `limit`. */
      read(threadId: string, afterPosition: number, limit: number): Promise<ThreadStreamEvent[]>;
    },
    private readonly pageSize: number,
  ) {}

  /** The thread's stored events after `afterPosition` (flushed first), at most a page. */
  readAfter(threadId: string, afterPosition: number): Promise<ThreadEventPage> {
    return new Promise<ThreadEventPage>((resolve, reject) => {
      let reads = this.threads.get(threadId);
      if (!reads) {
        reads = { waiting: [], isReading: false };
        this.threads.set(threadId, reads);
      }
      reads.waiting.push({ afterPosition, resolve, reject });
      if (!reads.isReading) this.schedule(threadId, reads);
    });
  }

  private schedule(threadId: string, reads: ThreadReads): void {
    reads.isReading = true;
    // The next turn: the streams woken by the same bus message all ask before it.
    setImmediate(() => void this.readRound(threadId, reads));
  }

  private async readRound(threadId: string, reads: ThreadReads): Promise<void> {
    const served = reads.waiting;
    reads.waiting = [];
    let from = served[0]!.afterPosition;
    for (const request of served) from = Math.min(from, request.afterPosition);
    let answeredLater: Waiting[] = [];
    try {
      await this.source.flush();
      const events = await this.source.read(threadId, from, this.pageSize);
      const isFull = events.length === this.pageSize;
      const last = events.at(-1)?.position ?? from;
      for (const request of served) {
        if (isFull && request.afterPosition >= last) {
          answeredLater.push(request);
          continue;
        }
        const start = firstAfter(events, request.afterPosition);
        request.resolve({ events: start === 0 ? events : events.slice(start), hasMore: isFull });
      }
    } catch (error) {
      for (const request of served) request.reject(error);
      answeredLater = [];
    }
    reads.waiting = [...answeredLater, ...reads.waiting];
    if (reads.waiting.length > 0) this.schedule(threadId, reads);
    else this.threads.delete(threadId);
  }
}

/** The index of the first event after `position` (events are in position order). */
function firstAfter(events: ThreadStreamEvent[], position: number): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (events[middle]!.position <= position) low = middle + 1;
    else high = middle;
  }
  return low;
}
