import { randomUUID } from "node:crypto";
import type http from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { authenticateCaller } from "../auth/authenticate-request.js";
import { AppError, AuthRefusalError } from "../domain/errors.js";
import { asFetchRequest, refuseUpgrade } from "../graphql/websocket.js";
import type { Logger } from "../logger.js";
import { asProtocolError, runTransportNeutralCommand } from "../protocol/protocol-commands.js";
import { ensureThread, openProtocolEventStream } from "../protocol/protocol-stream.js";
import { errorResponse, eventFilterOf, parseCommand, ProtocolError, sinceOf, type ProtocolCommand } from "../protocol/protocol-wire.js";
import { configurableHeadersPolicy } from "../rest/configurable-headers.js";
import { createServiceContext, type HangarRuntime } from "../runtime.js";
import type { ServiceContext } from "../services/service-context.js";
import { closeReason, isCredentialProtocol, refusalCloseCode, subprotocolCredentials } from "./websocket-credentials.js";

const STREAM_PATH = /^\/threads\/([^/]+)\/stream\/events$/;

/** Past this many bytes queued for one socket, its reader is too slow: closed, not buffered on. */
export const MAX_SOCKET_BACKLOG_BYTES = 16 * 1024 * 1024;
/** Close code for a reader that fell that far behind (1008: policy violation). */
export const SLOW_CONSUMER_CLOSE = 1008;

export function isProtocolStreamPath(pathname: string): boolean {
  return STREAM_PATH.test(pathname);
}

/**
 * LangGraph streaming protocol v2 over WebSocket: `GET /threads/{thread_id}/stream/events`
 * upgraded; commands in, responses and events out. The upgrade is authenticated like any request
 * (API key, then custom auth; refused before a socket exists), and every command runs as that
 * caller through the services. A browser, which cannot send headers, offers its credential as a
 * subprotocol instead (websocket-credentials.ts), and a refusal of that closes the accepted socket
 * with 4401/4403 and the reason, which it can read. Frames over the body limit close the socket
 * with 1009 (ws's maxPayload). Returns a closer for shutdown (close code 1001 to every open socket).
 */
export function attachProtocolWebSocket(httpServer: http.Server, runtime: HangarRuntime): () => Promise<void> {
  const webSockets = new WebSocketServer({
    noServer: true,
    maxPayload: runtime.config.maxBodyBytes,
    // Never a credential (websocket-credentials.ts): the first other protocol the client offered.
    handleProtocols: (protocols) => [...protocols].find((protocol) => !isCredentialProtocol(protocol)) ?? false,
  });
  const runHeadersOf = configurableHeadersPolicy(runtime.deployment);
  const authentication = { apiKeys: runtime.config.apiKeys, customAuth: runtime.customAuth };

  const onUpgrade = async (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const { pathname } = new URL(request.url ?? "/", "http://localhost");
    const match = STREAM_PATH.exec(pathname);
    if (!match) return;
    const threadId = decodeURIComponent(match[1]!);
    const log = runtime.log.child({ requestId: headerValue(request.headers["x-request-id"]) ?? randomUUID(), transport: "protocol-ws" });
    // A browser's credentials arrive as subprotocols; handlers see them as the headers they stand
    // for, and never see them in sec-websocket-protocol.
    const fromSubprotocols = subprotocolCredentials(request);
    const isBrowserProfile = fromSubprotocols.offersCredential;
    const fetchRequest = asFetchRequest(
      request,
      isBrowserProfile ? { ...fromSubprotocols.headers, "sec-websocket-protocol": fromSubprotocols.protocols.join(", ") } : {},
    );
    let actor;
    try {
      actor = await authenticateCaller(authentication, fetchRequest, log);
    } catch (error) {
      if (!(error instanceof AppError)) {
        log.error({ err: error }, "authenticating a protocol WebSocket upgrade failed");
        socket.destroy();
      } else if (isBrowserProfile) {
        // A browser cannot read a refused upgrade's status: it learns why from the close frame.
        webSockets.handleUpgrade(request, socket, head, (webSocket) => webSocket.close(refusalCloseCode(error), closeReason(error)));
      } else refuseUpgrade(socket, error);
      return;
    }
    const ctx = createServiceContext(runtime, actor, log);
    webSockets.handleUpgrade(request, socket, head, (webSocket) => {
      new ProtocolSocket(webSocket, { ctx, threadId, runHeaders: runHeadersOf(fetchRequest.headers) }).start(runtime.config.protocolHeartbeatMs);
    });
  };
  httpServer.on("upgrade", onUpgrade);

  return async () => {
    httpServer.off("upgrade", onUpgrade);
    for (const client of webSockets.clients) client.close(1001, "server shutting down");
    await new Promise<void>((resolve) => webSockets.close(() => resolve()));
  };
}

/** One socket: its commands in order, its subscriptions, its backlog bound and heartbeat. */
class ProtocolSocket {
  private readonly subscriptions = new Map<string, AbortController>();
  private queue: Promise<void> = Promise.resolve();
  private alive = true;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly socket: WebSocket,
    private readonly context: { ctx: ServiceContext; threadId: string; runHeaders: Record<string, string> },
  ) {}

  private get log(): Logger {
    return this.context.ctx.log;
  }

  /** Pings every `heartbeatMs`; a socket that answered none of the last interval's is gone (a proxy or a NAT dropped it). */
  start(heartbeatMs: number): void {
    this.socket.on("message", (data, isBinary) => {
      // In order: a subscribe answered before the next run.start runs sees all of that run.
      this.queue = this.queue.then(() => this.onFrame(isBinary ? null : data.toString()));
    });
    this.socket.on("pong", () => (this.alive = true));
    this.socket.on("close", () => this.stop());
    this.socket.on("error", (error) => this.log.debug({ err: error }, "protocol WebSocket error"));
    this.heartbeat = setInterval(() => {
      if (!this.alive) return this.socket.terminate();
      this.alive = false;
      this.socket.ping();
    }, heartbeatMs);
  }

  private stop(): void {
    clearInterval(this.heartbeat);
    for (const abort of this.subscriptions.values()) abort.abort();
    this.subscriptions.clear();
  }

  private send(message: unknown): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    const frame = JSON.stringify(message);
    // The bound counts what this frame would add; a frame alone on an empty queue always goes (a
    // thread's state may outgrow the bound, and a reader that keeps up must still get it).
    const backlog = this.socket.bufferedAmount;
    if (backlog > 0 && backlog + frame.length > MAX_SOCKET_BACKLOG_BYTES) {
      this.log.warn({ backlog }, "protocol WebSocket reader too slow; closing");
      this.socket.close(SLOW_CONSUMER_CLOSE, `slow consumer: over ${MAX_SOCKET_BACKLOG_BYTES} bytes unsent`);
      this.stop();
      return;
    }
    this.socket.send(frame);
  }

  private async onFrame(text: string | null): Promise<void> {
    let command: ProtocolCommand;
    try {
      if (text === null) throw new ProtocolError("invalid_argument", "frames must be JSON text");
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new ProtocolError("invalid_argument", "frame is not valid JSON");
      }
      command = parseCommand(parsed);
    } catch (error) {
      const id = idOf(text);
      return this.send(errorResponse(id, error as ProtocolError));
    }
    try {
      const result = await this.run(command);
      this.send({ type: "success", id: command.id, result: result.result });
      for (const event of result.after ?? []) this.send(event);
      result.afterSent?.();
    } catch (error) {
      const refusal = asProtocolError(error);
      if (refusal instanceof ProtocolError) return this.send(errorResponse(command.id, refusal));
      if (refusal instanceof AuthRefusalError) return this.send(errorResponse(command.id, new ProtocolError("permission_denied", refusal.message)));
      this.log.error({ err: error, method: command.method }, "protocol command failed");
      this.send(errorResponse(command.id, new ProtocolError("unknown_error", "internal error")));
    }
  }

  private async run(command: ProtocolCommand): Promise<{ result: Record<string, unknown>; after?: unknown[]; afterSent?: () => void }> {
    const { ctx, threadId } = this.context;
    if (command.method === "subscription.subscribe") {
      const filter = eventFilterOf(command.params);
      const since = sinceOf(command.params);
      await ensureThread(ctx, threadId);
      const abort = new AbortController();
      const stream = await openProtocolEventStream(ctx, { threadId, filter, since, signal: abort.signal });
      const subscriptionId = randomUUID();
      this.subscriptions.set(subscriptionId, abort);
      return {
        result: { subscription_id: subscriptionId, replayed_events: stream.replayed.length },
        after: stream.replayed,
        // Live events only after the answer and the replay are sent.
        afterSent: () => void this.pump(subscriptionId, stream.live),
      };
    }
    if (command.method === "subscription.unsubscribe") {
      const id = command.params.subscription_id;
      const abort = typeof id === "string" ? this.subscriptions.get(id) : undefined;
      if (!abort) throw new ProtocolError("no_such_subscription", `no subscription '${String(id)}' on this connection`);
      abort.abort();
      this.subscriptions.delete(id as string);
      return { result: {} };
    }
    return { result: await runTransportNeutralCommand(this.context, command) };
  }

  private async pump(subscriptionId: string, events: AsyncGenerator<unknown>): Promise<void> {
    const closeCount = this.context.ctx.metrics?.webSocketSubscriptions.open();
    try {
      for await (const event of events) this.send(event);
    } catch (error) {
      this.log.error({ err: error, subscriptionId }, "protocol subscription failed; closing its socket");
      this.socket.close(1011, "subscription failed");
    } finally {
      closeCount?.();
    }
  }
}

/** The id of a refused frame when it has a usable one, so the client can match the error. */
function idOf(text: string | null): number | null {
  try {
    const id = (JSON.parse(text ?? "") as { id?: unknown }).id;
    return typeof id === "number" && Number.isSafeInteger(id) ? id : null;
  } catch {
    return null;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
