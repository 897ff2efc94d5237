import type { AuthUser } from "../auth/auth-types.js";
import { EncryptionHandlerError, type JsonFieldCipher } from "../db/json-field-cipher.js";
import { coerceError, InvalidInputError } from "../domain/errors.js";
import type { EncryptedField, EncryptedModel } from "../domain/encryption.js";
import { isJsonObject, type JsonObject } from "../domain/json.js";
import type { EncryptionContextHandler } from "../graphs/load-encryption.js";
import type { AssistantVersion } from "../domain/assistant.js";
import type { Thread } from "../domain/thread.js";
import type { Logger } from "../logger.js";
import type { Actor, ServiceContext } from "./service-context.js";

/**
 * JSON field encryption for one request or job: the deployment's cipher and the caller's
 * encryption context, derived at most once (LangGraph calls its `context` handler once per
 * request, after authentication).
 */
export interface RequestEncryption {
  cipher: JsonFieldCipher;
  contextMetadata(): Promise<JsonObject>;
}

export function requestEncryption(
  cipher: JsonFieldCipher,
  contextHandler: EncryptionContextHandler | null,
  actor: Actor,
  log: Logger,
): RequestEncryption {
  let derived: Promise<JsonObject> | undefined;
  return {
    cipher,
    contextMetadata: () => {
      derived ??= deriveContext(contextHandler, actor.kind === "user" ? actor.user : undefined, log);
      return derived;
    },
  };
}

/**
 * The context a user's writes are encrypted with. Only callers authenticated by the deployment's
 * `authenticate` have a user to derive it from; API-key holders, open deployments and Hangar's own
 * jobs without a stored context write with `{}`.
 */
async function deriveContext(handler: EncryptionContextHandler | null, user: AuthUser | undefined, log: Logger): Promise<JsonObject> {
  if (!handler || !user) return {};
  let metadata: unknown;
  try {
    metadata = await handler(user, { model: null, field: null, metadata: {} });
  } catch (error) {
    log.error({ err: coerceError(error) }, "the encryption module's context handler failed");
    throw new EncryptionHandlerError("The deployment's encryption module's context handler failed; see the server log", { cause: error });
  }
  if (!isJsonObject(metadata)) {
    throw new EncryptionHandlerError("The deployment's encryption module's context handler must return an object (the encryption context)");
  }
  const copy: JsonObject = JSON.parse(JSON.stringify(metadata));
  return copy;
}

/** A row's JSON fields by LangGraph field name; null and absent fields are left as they are. */
export type JsonFields = Partial<Record<EncryptedField, JsonObject | null | undefined>>;

/**
 * Seals a row's fields for storage. The row keeps the context it was first written with
 * (`storedContext`), so its fields are always opened with one context; a new row gets the
 * caller's. Returns the fields to store and the context to store with them (null: no JSON
 * encryption, the row is written in clear and marked so).
 */
export async function sealFields<F extends JsonFields>(
  ctx: Pick<ServiceContext, "encryption">,
  model: EncryptedModel,
  fields: F,
  storedContext?: JsonObject | null,
): Promise<{ fields: F; encryptionContext: JsonObject | null }> {
  const encryption = ctx.encryption;
  if (!encryption) return { fields, encryptionContext: null };
  const metadata = storedContext ?? (await encryption.contextMetadata());
  const sealed: JsonFields = { ...fields };
  for (const [field, value] of Object.entries(fields) as Array<[EncryptedField, JsonObject | null | undefined]>) {
    if (isJsonObject(value) && Object.keys(value).length > 0) sealed[field] = await encryption.cipher.seal(model, field, metadata, value);
  }
  return { fields: sealed as F, encryptionContext: metadata };
}

/**
 * Opens a row's fields for a reader, with the context stored with the row. A row written without
 * JSON encryption (no stored context) is read as it is; so is every row on a deployment that
 * has no JSON handlers (what was sealed by a removed module cannot be opened: it reads as stored).
 */
export async function openFields<F extends JsonFields>(
  ctx: Pick<ServiceContext, "encryption">,
  model: EncryptedModel,
  fields: F,
  storedContext: JsonObject | null | undefined,
): Promise<F> {
  const encryption = ctx.encryption;
  if (!encryption || !storedContext) return fields;
  const opened: JsonFields = { ...fields };
  for (const [field, value] of Object.entries(fields) as Array<[EncryptedField, JsonObject | null | undefined]>) {
    if (isJsonObject(value) && Object.keys(value).length > 0) opened[field] = await encryption.cipher.open(model, field, storedContext, value);
  }
  return opened as F;
}

/**
 * Custom auth finds rows by containment of its filters in their metadata (`owner`, `tenant_id`):
 * a handler that encrypted one of those keys would hide the row from its own owner, so the write
 * is refused (LangGraph's server answers 422 too) and the module's authors learn which key to skip.
 */
export function requireScopeKeysInClear(scope: Record<string, unknown>, plain: JsonObject | undefined, sealed: JsonObject | undefined): void {
  for (const key of Object.keys(scope)) {
    if (plain && sealed && JSON.stringify(plain[key]) !== JSON.stringify(sealed[key])) {
      throw new InvalidInputError(
        `metadata.${key} is filtered on by custom auth but the encryption module's encrypt.json handler encrypted it; leave it in clear`,
      );
    }
  }
}

/**
 * The thread as callers see it: its metadata and values opened with the context stored with it.
 * `metadataOnly` for state reads, which take the values from the checkpoint: opening a large
 * state's cached copy there would be work thrown away.
 */
export async function openThread<T extends Thread>(
  ctx: Pick<ServiceContext, "encryption">,
  thread: T,
  options: { metadataOnly?: boolean } = {},
): Promise<T> {
  const fields = options.metadataOnly ? { metadata: thread.metadata } : { metadata: thread.metadata, values: thread.values };
  const opened = await openFields(ctx, "thread", fields, thread.encryptionContext);
  return { ...thread, ...opened };
}

/** An assistant (or one of its versions) as callers see it: metadata and context opened. */
export async function openAssistant<T extends AssistantVersion>(ctx: Pick<ServiceContext, "encryption">, assistant: T): Promise<T> {
  const opened = await openFields(ctx, "assistant", { metadata: assistant.metadata, context: assistant.context }, assistant.encryptionContext);
  return { ...assistant, metadata: opened.metadata, context: opened.context };
}

/** An assistant (or version) as stored: metadata and context sealed, with the context they were sealed with. */
export async function sealAssistant<T extends AssistantVersion>(
  ctx: Pick<ServiceContext, "encryption">,
  assistant: T,
  storedContext?: JsonObject | null,
): Promise<T> {
  const sealed = await sealFields(ctx, "assistant", { metadata: assistant.metadata, context: assistant.context }, storedContext);
  return { ...assistant, ...sealed.fields, encryptionContext: sealed.encryptionContext };
}
