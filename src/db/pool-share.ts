import { AsyncLocalStorage } from "node:async_hooks";
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
 * the store reach the pool without a per-request handle. A place in the share is a counter while
 * the operation is under its limit: no queue, no promise, no timer. Server CPU per request of
 * the console's 20-thread page on an API-only process (bench/graphql.ts's query; servers of each
 * variant side by side, batches interleaved, so the shared machine's load hits all alike):
 * three comparisons gave no share 5.62 / 5.05 / 5.20 ms, this share 5.77 / 5.33 / 5.16 ms, the
 * former p-queue share 5.72 / 5.47 / 5.66 ms: within noise of no share. Node's --experimental-async-context-frame (cheaper AsyncLocalStorage)
 * measured no different (5.72 ms), so it is not asked for.
 */
class ConnectionShare {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly max: number,
    readonly signal: AbortSignal | undefined,
  ) {}

  /** Takes a place at once when one is free (true); otherwise the caller waits with `wait`. */
  tryTake(): boolean {
    if (this.held >= this.max) return false;
    this.held++;
    return true;
  }

  /** A place, once one is given back; rejects with the signal's reason when it aborts first. */
  wait(): Promise<void> {
    return new Promise((granted, refused) => {
      const signal = this.signal;
      if (signal?.aborted) return refused(signal.reason);
      const onAbort = () => {
        const index = this.waiting.indexOf(grant);
        if (index !== -1) this.waiting.splice(index, 1);
        refused(signal!.reason);
      };
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        granted();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(grant);
    });
  }

  /** Gives a place back: straight to the next waiter, if any. */
  giveBack(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held--;
  }
}

const currentShare = new AsyncLocalStorage<ConnectionShare>();

/**
 * Runs `work`, and everything it starts, holding at most `max` connections of a SharedPool at
 * once. Waiting for a connection stops with `signal`'s reason when it aborts (the operation's
 * deadline), which also ends a wait that could never be served (`max` flows each holding a
 * connection while asking for another).
 */
export function withPoolShare<T>(max: number, signal: AbortSignal | undefined, work: () => T): T {
  return currentShare.run(new ConnectionShare(max, signal), work);
}

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * A pg.Pool whose `connect` (which `query` and TypeORM use too) takes a place in the caller's
 * share first, if it runs inside withPoolShare, and gives it back when the client is released
 * (the pool's public `release` event). Outside a share it is an ordinary pool.
 */
export class SharedPool extends pg.Pool {
  private readonly shareOf = new WeakMap<pg.PoolClient, ConnectionShare>();

  constructor(config?: pg.PoolConfig) {
    super(config);
    this.on("release", (_error, client) => {
      this.shareOf.get(client)?.giveBack();
      this.shareOf.delete(client);
    });
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const share = currentShare.getStore();
    if (!share) return callback ? super.connect(callback) : super.connect();
    const connected = (share.tryTake() ? this.connectHolding(share) : share.wait().then(() => this.connectHolding(share)));
    if (!callback) return connected;
    connected.then(
      (client) => callback(undefined, client, (release?: unknown) => client.release(release as Error | boolean | undefined)),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), undefined, () => {}),
    );
  }

  /** A client for a share whose place is taken; the place goes back with the client, or at once if none came. */
  private async connectHolding(share: ConnectionShare): Promise<pg.PoolClient> {
    try {
      const client = await super.connect();
      this.shareOf.set(client, share);
      return client;
    } catch (error) {
      share.giveBack();
      throw error;
    }
  }
}
