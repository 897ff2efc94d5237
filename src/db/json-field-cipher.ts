import { AppError, coerceError } from "../domain/errors.js";
import type { EncryptedField, EncryptedModel, EncryptionContext } from "../domain/encryption.js";
import { isJsonObject, type JsonObject } from "../domain/json.js";
import type { Logger } from "../logger.js";

/** `encrypt.json` / `decrypt.json` of the deployment's encryption module: an object in, an object out. */
export type JsonHandler = (context: EncryptionContext, data: JsonObject) => Promise<JsonObject> | JsonObject;

export interface JsonHandlers {
  encrypt: JsonHandler;
  decrypt: JsonHandler;
}

/**
 * The deployment's encryption module failed (threw, or broke its contract): the request fails
 * with 503 and writes nothing. The handler's own message may name keys or accounts, so it goes
 * to the log only.
 */
export class EncryptionHandlerError extends AppError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("UNAVAILABLE", message, options);
  }
}

/**
 * Seals and opens JSON fields LangGraph's JSON handlers cover with the deployment's handlers:
 * thread metadata and values, assistant metadata and context, run metadata and kwargs, cron
 * metadata and payload, store values. The handler chooses which keys it encrypts (the others
 * stay searchable) but must keep every key, as LangGraph's server requires: jsonb merges and
 * containment filters work key by key, so a handler that renames or drops keys is refused.
 */
export class JsonFieldCipher {
  constructor(
    private readonly handlers: JsonHandlers,
    private readonly log: Logger,
  ) {}

  seal(model: EncryptedModel, field: EncryptedField, metadata: JsonObject, data: JsonObject): Promise<JsonObject> {
    return this.call("encrypt", { model, field, metadata }, data);
  }

  /**
   * The plaintext of a sealed field. `decrypt.json` may also hand back replacement ciphertext
   * (LangGraph's `DecryptResult(plaintext, replacement)`, e.g. after rotating the key it was
   * sealed with), as a plain object `{plaintext, replacement}`: `onReplacement` gets it, for the
   * caller to store in place of `data`. Both must keep `data`'s keys.
   */
  async open(
    model: EncryptedModel,
    field: EncryptedField,
    metadata: JsonObject,
    data: JsonObject,
    onReplacement?: (replacement: JsonObject) => void,
  ): Promise<JsonObject> {
    const context = { model, field, metadata };
    const result = await this.invoke("decrypt", context, data);
    if (!isDecryptResult(result, data)) return this.checked("decrypt", context, data, result);
    const plaintext = this.checked("decrypt", context, data, result.plaintext);
    if (result.replacement !== undefined && result.replacement !== null) {
      const replacement = this.checked("decrypt", context, data, result.replacement);
      onReplacement?.(replacement);
    }
    return plaintext;
  }

  private async call(handler: "encrypt" | "decrypt", context: EncryptionContext, data: JsonObject): Promise<JsonObject> {
    return this.checked(handler, context, data, await this.invoke(handler, context, data));
  }

  private async invoke(handler: "encrypt" | "decrypt", context: EncryptionContext, data: JsonObject): Promise<unknown> {
    const what = `${handler}.json handler failed on ${context.model} ${context.field}`;
    let result: unknown;
    try {
      // A copy each: a handler that edits its input in place must not change what the caller holds.
      result = await this.handlers[handler]({ ...context, metadata: { ...context.metadata } }, { ...data });
    } catch (error) {
      this.log.error({ err: coerceError(error), model: context.model, field: context.field }, `the encryption module's ${what}`);
      throw new EncryptionHandlerError(`The deployment's encryption module's ${what}; see the server log`, { cause: error });
    }
    return result;
  }

  /** The handler's answer if it keeps the contract (an object with the keys it was given). */
  private checked(handler: "encrypt" | "decrypt", context: EncryptionContext, data: JsonObject, result: unknown): JsonObject {
    if (!isJsonObject(result)) {
      throw new EncryptionHandlerError(
        `The deployment's encryption module's ${handler}.json handler must return an object; it returned ${result === null ? "null" : typeof result}`,
      );
    }
    const changed = changedKeys(data, result);
    if (changed.length > 0) {
      throw new EncryptionHandlerError(
        `The deployment's encryption module's ${handler}.json handler must keep the keys it is given (encrypt values only); ` +
          `it changed ${changed.slice(0, 5).join(", ")} of ${context.model} ${context.field}`,
      );
    }
    return result;
  }
}

/**
 * A decrypt answer shaped like LangGraph's DecryptResult: only `plaintext` (an object with the
 * given keys) and `replacement`. Plain decrypted data looks like that only if its one or two keys
 * are `plaintext`/`replacement` and `plaintext` holds an object with those same keys.
 */
function isDecryptResult(result: unknown, given: JsonObject): result is { plaintext: unknown; replacement?: unknown } {
  if (!isJsonObject(result) || !isJsonObject(result.plaintext)) return false;
  if (!Object.keys(result).every((key) => key === "plaintext" || key === "replacement")) return false;
  return changedKeys(given, result.plaintext).length === 0;
}

/** Keys one object has and the other has not (named with a sign), as jsonb merges would see them. */
function changedKeys(given: JsonObject, returned: JsonObject): string[] {
  const removed = Object.keys(given).filter((key) => !Object.hasOwn(returned, key));
  const added = Object.keys(returned).filter((key) => !Object.hasOwn(given, key));
  return [...removed.map((key) => `-${JSON.stringify(key)}`), ...added.map((key) => `+${JSON.stringify(key)}`)];
}
