import type { Logger } from "../logger.js";
import { listenToChannels } from "../db/listen-channels.js";

/**
 * LISTENs to hangar_cron_changed (the crons trigger, one NOTIFY per statement) and calls
 * `onChange`, so a scheduler re-plans when any process creates, changes or deletes a cron. After
 * a reconnect it calls `onChange` too, since notifications sent meanwhile are lost.
 */
export function listenForCronChanges(
  connectionString: string,
  onChange: () => void,
  log: Logger,
): Promise<{ close(): Promise<void> }> {
  return listenToChannels({
    connectionString,
    channels: ["hangar_cron_changed"],
    name: "hangar-cron-listener",
    onNotification: () => onChange(),
    onReconnect: onChange,
    log,
  });
}
