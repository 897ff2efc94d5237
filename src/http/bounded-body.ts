import { PayloadTooLargeError } from "../domain/errors.js";

/**
 * Reads a request body but stops as soon as it passes maxBytes, so a chunked upload with no
 * content-length cannot make the server buffer an unbounded body.
 */
export async function readBoundedBody(request: Request, maxBytes: number): Promise<Buffer> {
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new PayloadTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
