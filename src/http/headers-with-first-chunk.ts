import type { ServerResponse } from "node:http";
import type { Context } from "hono";

/**
 * Sends a streamed response's headers in one write with its first chunk, when that chunk is ready
 * as the response is returned (create-and-stream's `metadata` event, sse-response.ts `opening`).
 *
 * @hono/node-server writes a streamed body's headers on their own (flushHeaders), then each chunk
 * once its read resolves: two writes and two packets, so a client waiting for the first event got
 * it a packet after the headers. With the connection's socket corked until the end of the current
 * turn, both are buffered and leave in one write: the adapter's writeHead, flushHeaders and first
 * read and write are microtasks of the turn in which the handler returns, and process.nextTick
 * runs after those. Should one of them wait for I/O instead, the uncork comes first and the writes
 * go out one by one as before. The socket, not the response: a corked ServerResponse keeps the
 * chunks of a chunked body to itself and, when uncorked, releases the socket (the headers) before
 * writing them, in writes of their own again. Without a Node response (the SDK loopback calls the
 * app's fetch directly, http/sdk-loopback.ts) there is nothing to do.
 */
export function sendHeadersWithFirstChunk(c: Context): void {
  const socket = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing?.socket;
  if (!socket) return;
  socket.cork();
  process.nextTick(() => socket.uncork());
}
