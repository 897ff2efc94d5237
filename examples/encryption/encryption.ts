import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * At-rest encryption for the deployment's checkpoints (langgraph.json
 * `"encryption": { "path": "./encryption.ts:encryption" }`): AES-256-GCM with a 32-byte key given
 * base64-encoded in ENCRYPTION_KEY (`openssl rand -base64 32`). Each blob is stored as
 * version (1 byte) | IV (12) | tag (16) | ciphertext, authenticated together with what it is
 * (model and field), so a blob moved to another column or altered fails to decrypt.
 *
 * The key is read on every call, so a key missing or replaced while running is reported as the
 * error it is (a run fails, a read answers an error), never as data.
 */
const FORMAT_VERSION = 1;

function key(): Buffer {
  const encoded = process.env.ENCRYPTION_KEY ?? "";
  const bytes = Buffer.from(encoded, "base64");
  if (bytes.length !== 32) throw new Error("ENCRYPTION_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)");
  return bytes;
}

// Stops start-up when the key is missing: nothing is ever written in clear.
key();

interface EncryptionContext {
  model: string;
  field: string;
  metadata: Record<string, unknown>;
}

function associatedData(context: EncryptionContext): Buffer {
  return Buffer.from(`${context.model}:${context.field}`);
}

export const encryption = {
  encrypt: {
    blob(context: EncryptionContext, data: Uint8Array): Uint8Array {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key(), iv).setAAD(associatedData(context));
      const sealed = Buffer.concat([cipher.update(data), cipher.final()]);
      return Buffer.concat([Buffer.of(FORMAT_VERSION), iv, cipher.getAuthTag(), sealed]);
    },
  },
  decrypt: {
    blob(context: EncryptionContext, data: Uint8Array): Uint8Array {
      const bytes = Buffer.from(data);
      if (bytes[0] !== FORMAT_VERSION) throw new Error(`unknown encryption format ${bytes[0]}`);
      const decipher = createDecipheriv("aes-256-gcm", key(), bytes.subarray(1, 13)).setAAD(associatedData(context));
      decipher.setAuthTag(bytes.subarray(13, 29));
      return Buffer.concat([decipher.update(bytes.subarray(29)), decipher.final()]);
    },
  },
};
