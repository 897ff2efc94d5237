import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * At-rest encryption for the deployment (langgraph.json
 * `"encryption": { "path": "./encryption.ts:encryption" }`): AES-256-GCM with a 32-byte key given
 * base64-encoded in ENCRYPTION_KEY (`openssl rand -base64 32`).
 *
 * - Checkpoints (`blob`): each blob is stored as version (1 byte) | IV (12) | tag (16) |
 *   ciphertext, authenticated together with what it is (model and field), so a blob moved to
 *   another column or altered fails to decrypt.
 * - JSON fields (`json`: thread metadata and values, assistant metadata and context, run
 *   metadata and kwargs, cron metadata and payload, store values): every key's value is
 *   encrypted except the keys in CLEAR_KEYS, which stay searchable (thread search by
 *   `metadata.graph_id`, custom auth's `owner` filter). Keys are kept, as the server requires;
 *   an encrypted value is the string `encrypted:v1:<base64>`, and decrypt passes anything else
 *   through, so rows written before encryption was turned on still read.
 * - Context: the caller's identity becomes `context.metadata.tenant_id` (stored with each row) and
 *   is authenticated with every JSON value, so one tenant's value copied into another tenant's
 *   row fails to decrypt. The decrypt side does not look at the model or field: the server may
 *   open a value under another model than it was sealed with (LangGraph warns of the same).
 *
 * The key is read on every call, so a key missing or replaced while running is reported as the
 * error it is (a request answers 503, a run fails), never as data.
 */
const FORMAT_VERSION = 1;
const JSON_PREFIX = "encrypted:v1:";

/** Left in clear: what custom auth filters on, and the ids and system keys searches use. */
const CLEAR_KEYS = new Set([
  "owner",
  "tenant_id",
  "graph_id",
  "assistant_id",
  "thread_id",
  "run_id",
  "cron_id",
  "user_id",
  "checkpoint_id",
  "source",
  "step",
  "parents",
  "run_attempt",
]);

function key(): Buffer {
  const encoded = process.env.ENCRYPTION_KEY ?? "";
  const bytes = Buffer.from(encoded, "base64");
  if (bytes.length !== 32) throw new Error("ENCRYPTION_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)");
  return bytes;
}

// Stops start-up when the key is missing: nothing is ever written in clear.
key();

interface EncryptionContext {
  model: string | null;
  field: string | null;
  metadata: Record<string, unknown>;
}

function seal(data: Uint8Array, associated: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv).setAAD(Buffer.from(associated));
  const sealed = Buffer.concat([cipher.update(data), cipher.final()]);
  return Buffer.concat([Buffer.of(FORMAT_VERSION), iv, cipher.getAuthTag(), sealed]);
}

function open(data: Uint8Array, associated: string): Buffer {
  const bytes = Buffer.from(data);
  if (bytes[0] !== FORMAT_VERSION) throw new Error(`unknown encryption format ${bytes[0]}`);
  const decipher = createDecipheriv("aes-256-gcm", key(), bytes.subarray(1, 13)).setAAD(Buffer.from(associated));
  decipher.setAuthTag(bytes.subarray(13, 29));
  return Buffer.concat([decipher.update(bytes.subarray(29)), decipher.final()]);
}

/** JSON values are bound to the tenant they belong to (not to model or field, see above). */
function tenantOf(context: EncryptionContext): string {
  const tenant = context.metadata.tenant_id;
  return `tenant:${typeof tenant === "string" ? tenant : ""}`;
}

export const encryption = {
  encrypt: {
    blob: (context: EncryptionContext, data: Uint8Array): Uint8Array => seal(data, `${context.model}:${context.field}`),
    json(context: EncryptionContext, data: Record<string, unknown>): Record<string, unknown> {
      const associated = tenantOf(context);
      return Object.fromEntries(
        Object.entries(data).map(([name, value]) =>
          CLEAR_KEYS.has(name) || value === null || value === undefined
            ? [name, value]
            : [name, JSON_PREFIX + seal(Buffer.from(JSON.stringify(value)), associated).toString("base64")],
        ),
      );
    },
  },
  decrypt: {
    blob: (context: EncryptionContext, data: Uint8Array): Uint8Array => open(data, `${context.model}:${context.field}`),
    json(context: EncryptionContext, data: Record<string, unknown>): Record<string, unknown> {
      const associated = tenantOf(context);
      return Object.fromEntries(
        Object.entries(data).map(([name, value]) =>
          typeof value === "string" && value.startsWith(JSON_PREFIX)
            ? [name, JSON.parse(open(Buffer.from(value.slice(JSON_PREFIX.length), "base64"), associated).toString("utf8"))]
            : [name, value],
        ),
      );
    },
  },
  /** Once per request of a user signed in through the deployment's auth: their encryption context. */
  context: (user: { identity: string }, context: EncryptionContext): Record<string, unknown> => ({
    ...context.metadata,
    tenant_id: user.identity,
  }),
};
