import { AsyncLocalStorage } from "node:async_hooks";
import PQueue from "p-queue";
import pg from "pg";

/**
 * How many of the pool's connections one piece of work (a GraphQL operation) may hold at once.
 * Without it, one operation of 30 aliased pages, or a page whose 100 rows each read their own
 * state, queues 30 or 100 connection requests at once: pg-pool serves waiters first come first
 * served, so every other caller waits behind all of them, and past POOL_CONNECT_TIMEOUT_MS gets
 * "database unavailable" (issue 25: two alias bombs starved a pool of 24 while PostgreSQL was
 * up). With a share the excess waits here, per operation, and other callers reach the pool.
 *
 * The share follows the operation through AsyncLocalStorage, since TypeORM, the checkpointer and
 * the store reach the pool without a per-request handle. Its price is Node tracking async
 * context through every promise. Server CPU per request of a 20-thread GraphQL page (2 cores
 * under heavy shared load, so ±1.5 ms): API-only process that ran no graph 10.5 → 14.0 ms
 * (10.9 with every limit but the share); a process that had executed a run, whose LangChain
 * context already lives in an AsyncLocalStorage, 12.4 → 14.1 ms. Replacing it needs a
 * per-request pool handle passed down through the services.
 */
interface PoolShare {
  queue: PQueue;
  signal: AbortSignal | undefined;
}

const currentShare = new AsyncLocalStorage<PoolShare>();

/**
 * Runs `work`, and everything it starts, holding at most `max` connections of a SharedPool at
 * once. Waiting for a connection stops with `signal`'s reason when it aborts (the operation's
 * deadline), which also ends a wait that could never be served (`max` flows each holding a
 * connection while asking for another).
 */
export function withPoolShare<T>(max: number, signal: AbortSignal | undefined, work: () => T): T {
  return currentShare.run({ queue: new PQueue({ concurrency: max }), signal }, work);
}

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * A pg.Pool whose `connect` (which `query` and TypeORM use too) takes a place in the caller's
 * share first, if it runs inside withPoolShare, and gives it back when the client is released
 * (the pool's public `release` event). Outside a share it is an ordinary pool.
 */
export class SharedPool extends pg.Pool {
  private readonly placeOf = new WeakMap<pg.PoolClient, () => void>();

  constructor(config?: pg.PoolConfig) {
    super(config);
    this.on("release", (_error, client) => {
      this.placeOf.get(client)?.();
      this.placeOf.delete(client);
    });
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const share = currentShare.getStore();
    if (!share) return callback ? super.connect(callback) : super.connect();
    const connected = takePlace(share).then(async (giveBack) => {
      try {
        const client = await super.connect();
        this.placeOf.set(client, giveBack);
        return client;
      } catch (error) {
        giveBack();
        throw error;
      }
    });
    if (!callback) return connected;
    connected.then(
      (client) => callback(undefined, client, (release?: unknown) => client.release(release as Error | boolean | undefined)),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), undefined, () => {}),
    );
  }
}

/** A place in the share's queue, held until the returned function is called. */
function takePlace(share: PoolShare): Promise<() => void> {
  return new Promise((granted, refused) => {
    share.queue
      .add(() => new Promise<void>((giveBack) => granted(giveBack)), { signal: share.signal })
      .catch(refused);
  });
}
