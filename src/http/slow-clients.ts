import type http from "node:http";
import type { HangarConfig } from "../config.js";

/**
 * Node HTTP server options that close connections whose request arrives too slowly: headers
 * within headersTimeoutMs of the request's first byte, the whole request (body included) within
 * requestTimeoutMs; Node answers 408 and closes the socket. Node applies both only until a
 * request has been received, so responses that stream for hours (SSE, long /wait calls) and
 * upgraded WebSockets are untouched; idle keep-alive sockets have their own 5 s timeout.
 *
 * Node checks these deadlines on a timer (30 s by default), which let a client trickling a byte a
 * second hold its socket for up to 30 s past the deadline; checking each second costs one walk
 * of the connections still receiving a request.
 */
export function slowClientDeadlines(config: Pick<HangarConfig, "headersTimeoutMs" | "requestTimeoutMs">): http.ServerOptions {
  return {
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(config.headersTimeoutMs / 4))),
  };
}
