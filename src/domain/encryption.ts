import { InvalidInputError } from "./errors.js";
import { isJsonObject, type JsonObject } from "./json.js";

/**
 * What the deployment's encryption handlers are told about the data they seal or open, the
 * shape of LangGraph's `EncryptionContext`: the model and field, and the caller's non-secret
 * context (`metadata`: what the module's `context` handler derived from the authenticated user),
 * which is stored in clear with the row so that decrypting gets the same context later.
 */
export interface EncryptionContext {
  model: EncryptedModel | null;
  field: EncryptedField | null;
  metadata: JsonObject;
}

/** The models whose JSON fields LangGraph's JSON handlers encrypt (and `checkpoint`, for blobs). */
export type EncryptedModel = "thread" | "assistant" | "run" | "cron" | "store" | "checkpoint";

/**
 * JSON fields, as LangGraph names them: thread metadata/values, assistant metadata/context, run
 * metadata/kwargs, cron metadata/payload, store value (blobs: channel_value, pending_write).
 */
export type EncryptedField = "metadata" | "values" | "context" | "kwargs" | "payload" | "value" | "channel_value" | "pending_write";

/** The request header a caller sends its encryption context in (LangGraph's name). */
export const ENCRYPTION_CONTEXT_HEADER = "x-encryption-context";

/**
 * The context an `X-Encryption-Context` header carries: a JSON object, sent as it is or
 * base64-encoded (headers are ASCII), whose values are strings, numbers, booleans or null, as a
 * key service's context is (a flat map; nothing nested to walk). It becomes `context.metadata`
 * of the request's handler calls, or what the deployment's `context` handler starts from. Throws
 * INVALID_INPUT naming the header otherwise.
 */
export function parseEncryptionContextHeader(value: string): JsonObject {
  const text = value.trim();
  const decoded = text.startsWith("{") ? text : Buffer.from(text, "base64").toString("utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoded);
  } catch {
    parsed = undefined;
  }
  if (!isJsonObject(parsed)) {
    throw new InvalidInputError("X-Encryption-Context: must be a JSON object, as it is or base64-encoded");
  }
  for (const [key, field] of Object.entries(parsed)) {
    if (field !== null && typeof field === "object") {
      throw new InvalidInputError(`X-Encryption-Context: "${key}" must be a string, number, boolean or null (the context is a flat map)`);
    }
  }
  return parsed;
}
