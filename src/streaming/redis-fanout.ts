import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { Logger } from "../logger.js";
import type { BusMessage, RunEventBus } from "./run-event-bus.js";

const CHANNEL = "hangar:run-events";

/**
 * Carries the bus between Hangar processes that share one database: every message published here
 * goes to Redis, and messages from other processes are delivered to this process's readers. One
 * channel for all runs keeps subscription bookkeeping trivial; each process filters locally
 * (readers are keyed by run and thread). Our own messages are recognised by origin and skipped,
 * since they were already delivered locally.
 */
export async function attachRedisFanout(
  bus: RunEventBus,
  redisUrl: string,
  log: Logger,
): Promise<{ ping(): Promise<unknown>; close(): Promise<void> }> {
  const origin = randomUUID();
  const publisher = new Redis(redisUrl, { maxRetriesPerRequest: 2, lazyConnect: true });
  // Resubscribed here rather than by ioredis: its own resubscribe after a reconnect leaves the
  // SUBSCRIBE promise unhandled, and a connection closed before the reply (a Redis blip, or
  // shutdown right after a reconnect) then rejected it unhandled ("Connection is closed.").
  const subscriber = new Redis(redisUrl, { lazyConnect: true, autoResubscribe: false });
  for (const connection of [publisher, subscriber]) {
    connection.on("error", (error) => log.warn({ err: error }, "redis fan-out connection error"));
  }
  await Promise.all([publisher.connect(), subscriber.connect()]);
  await subscriber.subscribe(CHANNEL);
  subscriber.on("ready", () => {
    subscriber.subscribe(CHANNEL).catch((error: unknown) => log.warn({ err: error }, "could not resubscribe to run events on redis"));
  });
  subscriber.on("message", (_channel: string, text: string) => {
    let envelope: { origin: string; message: BusMessage };
    try {
      envelope = JSON.parse(text);
    } catch (error) {
      log.warn({ err: error }, "ignored a malformed run event from redis");
      return;
    }
    if (envelope.origin !== origin) bus.deliverLocally(envelope.message);
  });
  bus.addRemote((message) => {
    publisher.publish(CHANNEL, JSON.stringify({ origin, message })).catch((error: unknown) => {
      log.warn({ err: error }, "could not publish a run event to redis");
    });
  });
  log.info({ redis: redisUrl.replace(/\/\/[^@]*@/, "//***@") }, "run events fan out through redis");
  return {
    ping: () => publisher.ping(),
    async close() {
      subscriber.disconnect();
      await publisher.quit().catch(() => undefined);
    },
  };
}
