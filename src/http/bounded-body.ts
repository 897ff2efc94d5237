import { PayloadTooLargeError } from "../domain/errors.js";
import { parseJsonText, type ParsedJson } from "../domain/json-depth.js";

/**
 * Reads a request body but stops as soon as it passes maxBytes, so a chunked upload with no
 * content-length cannot make the server buffer an unbounded body.
 *
 * A body with a content-length (checked against the limit by the HTTP middleware; Node's parser
 * never reads past it) is read in one piece: @hono/node-server then reads the Node request
 * directly, where a web-stream reader cost ~3% of the server's CPU in the run bench.
 */
export async function readBoundedBody(request: Request, maxBytes: number): Promise<Buffer> {
  const declaredLength = request.headers.get("content-length");
  if (declaredLength !== null && Number(declaredLength) <= maxBytes) return Buffer.from(await request.arrayBuffer());
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

/**
 * One decoder for every body: decode() without `stream` keeps no state between calls, and
 * constructing a decoder per request showed in the CRUD bench's profile.
 */
const UTF8 = new TextDecoder();

/**
 * A request's JSON body, read within maxBytes and parsed within the depth limit
 * (domain/json-depth.ts): the one way every transport (REST, /tracing, /mcp, /a2a, GraphQL over
 * HTTP) turns untrusted bytes into a value. null for a body that is empty or blank (each
 * transport decides what that means); otherwise the parsed value or why it was refused, so
 * JSON-RPC transports can answer in their own error shape.
 */
export async function readBoundedJson(request: Request, maxBytes: number, root = "body"): Promise<ParsedJson | null> {
  const text = UTF8.decode(await readBoundedBody(request, maxBytes));
  if (text.trim() === "") return null;
  return parseJsonText(text, root);
}
