import { preparedStatement } from "../prepared-statement.js";
import { runStatement, type SqlHandle } from "../run-statement.js";

/**
 * NOTIFY on each of `channels`, with an empty payload (listeners re-read what changed). Run on
 * its own, outside any other transaction: a NOTIFY takes PostgreSQL's global notify-queue lock
 * when its transaction commits, so it must not ride on a write's commit (db/change-announcer.ts).
 */
const NOTIFY_CHANNELS = preparedStatement("notify_channels", "SELECT pg_notify(channel, '') FROM unnest($1::text[]) AS channel");

export async function notifyChannels(db: SqlHandle, channels: readonly string[]): Promise<void> {
  await runStatement(db, NOTIFY_CHANNELS, [channels]);
}
