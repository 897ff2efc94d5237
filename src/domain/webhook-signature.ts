import { createHmac } from "node:crypto";

/**
 * Webhook signatures in the Standard Webhooks format (standardwebhooks.com), so receivers can
 * verify deliveries with any of its libraries: `webhook-id`, `webhook-timestamp` (Unix seconds)
 * and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the bytes
 * of a `whsec_<base64>` secret.
 */
export const WEBHOOK_SECRET_PREFIX = "whsec_";

/** Standard Webhooks asks for 24 to 64 random bytes; fewer is a guessable key. */
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;

/** The key bytes of a `whsec_…` secret; throws a message naming what is wrong with it. */
export function parseWebhookSecret(secret: string): Buffer {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) throw new Error(`must start with "${WEBHOOK_SECRET_PREFIX}" (a Standard Webhooks secret)`);
  const encoded = secret.slice(WEBHOOK_SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw new Error(`the part after "${WEBHOOK_SECRET_PREFIX}" must be base64`);
  const key = Buffer.from(encoded, "base64");
  if (key.length < MIN_SECRET_BYTES || key.length > MAX_SECRET_BYTES) {
    throw new Error(`must encode ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} bytes, got ${key.length} (e.g. whsec_$(openssl rand -base64 32))`);
  }
  return key;
}

/** The three Standard Webhooks headers of one delivery attempt (the timestamp is the attempt's). */
export function signWebhook(key: Buffer, id: string, timestampSeconds: number, body: string): Record<string, string> {
  const signature = createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64");
  return { "webhook-id": id, "webhook-timestamp": String(timestampSeconds), "webhook-signature": `v1,${signature}` };
}
