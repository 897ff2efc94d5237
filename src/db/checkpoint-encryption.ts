import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { AppError, coerceError } from "../domain/errors.js";
import type { Logger } from "../logger.js";

/**
 * At-rest encryption of checkpoint data with the deployment's own handlers (langgraph.json
 * `encryption.path`, loaded by graphs/load-encryption.ts), after LangGraph Platform's custom
 * encryption: the server hands opaque bytes and a non-secret context to the module and stores
 * what it returns. Only blobs are encrypted: each channel value and each pending write, the
 * checkpoint state itself. Checkpoint metadata stays jsonb so that history can still be filtered.
 */

/** What the handlers are told about the bytes (the shape of LangGraph's EncryptionContext). */
export interface EncryptionContext {
  model: "checkpoint";
  /** `channel_value` for a channel's value, `pending_write` for a task's pending write. */
  field: BlobField;
  metadata: Record<string, unknown>;
}

export type BlobField = "channel_value" | "pending_write";

export type BlobHandler = (context: EncryptionContext, data: Uint8Array) => Promise<Uint8Array> | Uint8Array;

export interface BlobCipher {
  encrypt: BlobHandler;
  decrypt: BlobHandler;
}

/**
 * Marks a row's serializer type as encrypted, so that rows written before encryption was turned
 * on are still read as they are, and an encrypted row is never handed to the serializer as is.
 */
const ENCRYPTED_SUFFIX = "+encrypted";

/**
 * The serializer's bytes of a value, sealed by the deployment's cipher when it has one. A handler
 * that fails is logged here with its error; callers (a run, a read) get a clear message without
 * the handler's internals (a key service's errors may name keys or accounts).
 */
export class CheckpointBlobCodec {
  constructor(
    private readonly serde: SerializerProtocol,
    private readonly cipher: BlobCipher | null,
    private readonly log?: Logger,
  ) {}

  async dump(field: BlobField, value: unknown): Promise<{ type: string; blob: Buffer }> {
    const [type, bytes] = await this.serde.dumpsTyped(value);
    if (!this.cipher) return { type, blob: asBuffer(bytes) };
    const sealed = await this.handlerResult(() => this.cipher!.encrypt(contextOf(field), bytes), "encrypt", field);
    return { type: `${type}${ENCRYPTED_SUFFIX}`, blob: Buffer.from(sealed) };
  }

  async load(field: BlobField, type: string, blob: Uint8Array): Promise<unknown> {
    if (!type.endsWith(ENCRYPTED_SUFFIX)) return this.serde.loadsTyped(type, blob);
    if (!this.cipher) {
      throw new AppError(
        "INTERNAL",
        `A checkpoint ${field} is encrypted, but langgraph.json has no encryption.path to decrypt it with (it was written with one)`,
      );
    }
    const opened = await this.handlerResult(() => this.cipher!.decrypt(contextOf(field), blob), "decrypt", field);
    try {
      return await this.serde.loadsTyped(type.slice(0, -ENCRYPTED_SUFFIX.length), opened);
    } catch (error) {
      this.log?.error({ err: coerceError(error), field }, "decrypted checkpoint data does not deserialize");
      throw new AppError("INTERNAL", `The encryption module's decrypt handler returned bytes that are not a checkpoint ${field} (wrong key?)`, {
        cause: error,
      });
    }
  }

  /** A handler's bytes, or a clear error naming the handler: a key error must never pass for data. */
  private async handlerResult(call: () => Promise<Uint8Array> | Uint8Array, handler: "encrypt" | "decrypt", field: BlobField): Promise<Uint8Array> {
    let result: unknown;
    try {
      result = await call();
    } catch (error) {
      this.log?.error({ err: coerceError(error), field }, `the encryption module's ${handler} handler failed`);
      throw new AppError("INTERNAL", `The encryption module's ${handler} handler failed on a checkpoint ${field}; see the server log`, {
        cause: error,
      });
    }
    if (!(result instanceof Uint8Array)) {
      throw new AppError("INTERNAL", `The encryption module's ${handler} handler must return a Uint8Array (or Buffer); it returned ${typeof result}`);
    }
    return result;
  }
}

function contextOf(field: BlobField): EncryptionContext {
  return { model: "checkpoint", field, metadata: {} };
}

/**
 * The serializer's bytes as a Buffer over the same memory: Buffer.from(Uint8Array) would copy
 * every channel value and pending write once more before it is queued. LangGraph's serializers
 * return a fresh array per call (TextEncoder.encode), so sharing it is safe. A cipher's output
 * is still copied: it is the deployment's code, which may reuse its output buffer.
 */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
