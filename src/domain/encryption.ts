import type { JsonObject } from "./json.js";

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
