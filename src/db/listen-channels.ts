import pg from "pg";
import type { Logger } from "../logger.js";
import { runStatement } from "./run-statement.js";

const RECONNECT_DELAY_MS = 1_000;

export interface ChannelListenerOptions {
  connectionString: string;
  channels: readonly string[];
  /** Names the connection in pg_stat_activity and the listener in logs. */
  name: string;
  onNotification(message: pg.Notification): void;
  /** After a reconnect: notifications sent while disconnected are lost, so look again. */
  onReconnect(): void;
  log: Logger;
}

/**
 * LISTENs on a dedicated connection (LISTEN needs one of its own: a pooled connection would be
 * handed to other queries) and reconnects after a failure, once a second, until closed.
 */
export async function listenToChannels(options: ChannelListenerOptions): Promise<{ close(): Promise<void> }> {
  const { connectionString, channels, name, log } = options;
  let client: pg.Client | null = null;
  let closed = false;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString, application_name: name });
    next.on("notification", (message) => options.onNotification(message));
    next.on("error", (error) => {
      log.warn({ err: error, listener: name }, "listener lost its database connection; reconnecting");
      void next.end().catch(() => undefined);
      if (client === next) client = null;
      if (!closed) setTimeout(() => void reconnect(), RECONNECT_DELAY_MS).unref();
    });
    await next.connect();
    for (const channel of channels) await runStatement(next, `LISTEN ${channel}`);
    client = next;
  };

  const reconnect = async (): Promise<void> => {
    if (closed || client) return;
    try {
      await connect();
      options.onReconnect();
    } catch (error) {
      log.warn({ err: error, listener: name }, "listener could not reconnect; retrying");
      setTimeout(() => void reconnect(), RECONNECT_DELAY_MS).unref();
    }
  };

  await connect();
  return {
    async close() {
      closed = true;
      await client?.end().catch(() => undefined);
      client = null;
    },
  };
}
