import type { AuthUser } from "../auth/auth-types.js";
import type { EntityManager } from "typeorm";
import { EncryptionHandlerError, type JsonFieldCipher } from "../db/json-field-cipher.js";
import { replaceSealedField, type SealedRow } from "../db/sql/replace-sealed-field.js";
import { coerceError, InvalidInputError } from "../domain/errors.js";
import type { EncryptedField, EncryptedModel } from "../domain/encryption.js";
import { isJsonObject, type JsonObject } from "../domain/json.js";
import type { EncryptionContextHandler } from "../graphs/load-encryption.js";
import type { AssistantVersion } from "../domain/assistant.js";
import type { Thread } from "../domain/thread.js";
import type { Cron, CronPayload } from "../domain/cron.js";
import type { Run, RunKwargs } from "../domain/run.js";
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
  /**
   * Stores replacement ciphertext a decrypt handler gave back for a field read from `row`
   * (LangGraph's DecryptResult, key rotation). Not awaited by the read: the reader may hold the
   * row's lock in a transaction (an update reads before it writes), which this statement waits
   * for; failures are logged, and the next read replaces it again.
   */
  replaceSealed(row: SealedRow, field: EncryptedField, sealed: JsonObject, replacement: JsonObject): void;
}

export function requestEncryption(
  cipher: JsonFieldCipher,
  contextHandler: EncryptionContextHandler | null,
  actor: Actor,
  log: Logger,
  manager: EntityManager,
): RequestEncryption {
  let derived: Promise<JsonObject> | undefined;
  return {
    cipher,
    replaceSealed: (row, field, sealed, replacement) => {
      replaceSealedField(manager, row, field, sealed, replacement).then(
        (replaced) => log.debug({ table: row.table, field, replaced }, "stored the replacement ciphertext decrypt.json gave back"),
        (error: unknown) => log.warn({ err: coerceError(error), table: row.table, field }, "could not store the replacement ciphertext decrypt.json gave back"),
      );
    },
    contextMetadata: () => {
      derived ??= deriveContext(contextHandler, actor.kind === "user" ? actor.user : undefined, actor.encryptionContext ?? {}, log);
      return derived;
    },
  };
}

/**
 * The context a caller's writes are encrypted with, as LangGraph derives it: what the caller sent
 * in X-Encryption-Context (`sent`, `{}` when nothing), given to the deployment's `context` handler
 * as `context.metadata` when the caller is a user authenticated by the deployment's
 * `authenticate` (the handler's answer replaces it: keep `...context.metadata` to keep the
 * header's keys); otherwise `sent` as it is. Hangar's own jobs send nothing: `{}`.
 */
async function deriveContext(handler: EncryptionContextHandler | null, user: AuthUser | undefined, sent: JsonObject, log: Logger): Promise<JsonObject> {
  if (!handler || !user) return sent;
  let metadata: unknown;
  try {
    metadata = await handler(user, { model: null, field: null, metadata: { ...sent } });
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

/**
 * A row's JSON fields by LangGraph field name. Only non-empty objects are sealed: null, absent
 * fields and other JSON values (a functional-API thread's values may be a string or an array)
 * are left as they are.
 */
export type JsonFields = Partial<Record<EncryptedField, unknown>>;

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
  for (const [field, value] of Object.entries(fields) as Array<[EncryptedField, unknown]>) {
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
  row?: SealedRow,
): Promise<F> {
  const encryption = ctx.encryption;
  if (!encryption || !storedContext) return fields;
  const opened: JsonFields = { ...fields };
  for (const [field, value] of Object.entries(fields) as Array<[EncryptedField, unknown]>) {
    if (!isJsonObject(value) || Object.keys(value).length === 0) continue;
    const replace = row ? (replacement: JsonObject) => encryption.replaceSealed(row, field, value, replacement) : undefined;
    opened[field] = await encryption.cipher.open(model, field, storedContext, value, replace);
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
  const opened = await openFields(ctx, "thread", fields, thread.encryptionContext, { table: "threads", key: [thread.threadId] });
  return { ...thread, ...opened };
}

/** An assistant (or one of its versions: `from` says which table it was read from) as callers see it: metadata and context opened. */
export async function openAssistant<T extends AssistantVersion>(
  ctx: Pick<ServiceContext, "encryption">,
  assistant: T,
  from: "assistants" | "assistant_versions" = "assistants",
): Promise<T> {
  const row: SealedRow =
    from === "assistants" ? { table: from, key: [assistant.assistantId] } : { table: from, key: [assistant.assistantId, assistant.version] };
  const opened = await openFields(ctx, "assistant", { metadata: assistant.metadata, context: assistant.context }, assistant.encryptionContext, row);
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

/** A run's metadata and kwargs as stored: sealed with `storedContext` or the caller's context. */
export interface StoredRunFields {
  metadata: JsonObject;
  kwargs: JsonObject;
  encryptionContext: JsonObject | null;
}

/**
 * A run's metadata and kwargs (its input, command, config and context as Hangar stores them) as
 * they go into the queue: sealed before the enqueue statement, so they are never written in clear.
 */
export async function sealRun(ctx: Pick<ServiceContext, "encryption">, run: Run, storedContext?: JsonObject | null): Promise<StoredRunFields> {
  const kwargs = run.kwargs as unknown as JsonObject;
  const sealed = await sealFields(ctx, "run", { metadata: run.metadata, kwargs }, storedContext);
  return { metadata: sealed.fields.metadata ?? run.metadata, kwargs: sealed.fields.kwargs ?? kwargs, encryptionContext: sealed.encryptionContext };
}

/**
 * sealRun for a batch (a cron tick's runs, 1,000 at a time): without JSON encryption the fields
 * are stored as they are, answered without a promise per run.
 */
export async function sealRuns(
  ctx: Pick<ServiceContext, "encryption">,
  runs: ReadonlyArray<{ run: Run; storedContext: JsonObject | null }>,
): Promise<StoredRunFields[]> {
  if (!ctx.encryption) return runs.map(({ run }) => ({ metadata: run.metadata, kwargs: run.kwargs as unknown as JsonObject, encryptionContext: null }));
  return Promise.all(runs.map(({ run, storedContext }) => sealRun(ctx, run, storedContext)));
}

/** A run as readers (and the worker that executes it) see it: metadata and kwargs opened. */
export async function openRun<T extends Run>(ctx: Pick<ServiceContext, "encryption">, run: T): Promise<T> {
  const kwargs = run.kwargs as unknown as JsonObject;
  const opened = await openFields(ctx, "run", { metadata: run.metadata, kwargs }, run.encryptionContext, { table: "runs", key: [run.runId] });
  return { ...run, metadata: opened.metadata ?? run.metadata, kwargs: (opened.kwargs ?? kwargs) as unknown as RunKwargs };
}

export function openRuns<T extends Run>(ctx: Pick<ServiceContext, "encryption">, runs: readonly T[]): Promise<T[]> {
  if (!ctx.encryption) return Promise.resolve([...runs]);
  return Promise.all(runs.map((run) => openRun(ctx, run)));
}

/** A cron as stored: metadata and payload sealed, with the context they were sealed with. */
export async function sealCron(ctx: Pick<ServiceContext, "encryption">, cron: Cron, storedContext?: JsonObject | null): Promise<Cron> {
  const payload = cron.payload as unknown as JsonObject;
  const sealed = await sealFields(ctx, "cron", { metadata: cron.metadata, payload }, storedContext);
  return {
    ...cron,
    metadata: sealed.fields.metadata ?? cron.metadata,
    payload: (sealed.fields.payload ?? payload) as unknown as CronPayload,
    encryptionContext: sealed.encryptionContext,
  };
}

/** Crons as readers and their firings see them; without JSON encryption, as they are (no copy, no promise per cron). */
export function openCrons<T extends Cron>(ctx: Pick<ServiceContext, "encryption">, crons: readonly T[]): Promise<T[]> {
  if (!ctx.encryption) return Promise.resolve([...crons]);
  return Promise.all(crons.map((cron) => openCron(ctx, cron)));
}

/** A cron as readers and its firings see it: metadata and payload opened. */
export async function openCron<T extends Cron>(ctx: Pick<ServiceContext, "encryption">, cron: T): Promise<T> {
  const payload = cron.payload as unknown as JsonObject;
  const opened = await openFields(ctx, "cron", { metadata: cron.metadata, payload }, cron.encryptionContext, { table: "crons", key: [cron.cronId] });
  return { ...cron, metadata: opened.metadata ?? cron.metadata, payload: (opened.payload ?? payload) as unknown as CronPayload };
}
