import pg from "pg";
import type { Logger } from "../logger.js";

const RECONNECT_DELAY_MS = 1_000;

/**
 * LISTENs to hangar_cron_changed (the crons trigger, one NOTIFY per statement) on a dedicated
 * connection and calls `onChange`, so a scheduler re-plans when any process creates, changes or
 * deletes a cron. Reconnects after a failure and calls `onChange` on reconnect, since
 * notifications sent meanwhile are lost.
 */
export async function listenForCronChanges(
  connectionString: string,
  onChange: () => void,
  log: Logger,
): Promise<{ close(): Promise<void> }> {
  let client: pg.Client | null = null;
  let closed = false;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString, application_name: "hangar-cron-listener" });
    next.on("notification", () => onChange());
    next.on("error", (error) => {
      log.warn({ err: error }, "cron change listener lost its connection; reconnecting");
      void next.end().catch(() => undefined);
      if (client === next) client = null;
      if (!closed) setTimeout(() => void reconnect(), RECONNECT_DELAY_MS).unref();
    });
    await next.connect();
    await next.query("LISTEN hangar_cron_changed");
    client = next;
  };

  const reconnect = async (): Promise<void> => {
    if (closed || client) return;
    try {
      await connect();
      onChange();
    } catch (error) {
      log.warn({ err: error }, "cron change listener could not reconnect; retrying");
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
