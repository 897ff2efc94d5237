import { randomUUID } from "node:crypto";
import type http from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { authenticateCaller } from "../auth/authenticate-request.js";
import { AppError, AuthRefusalError } from "../domain/errors.js";
import { asFetchRequest, refuseUpgrade } from "../graphql/websocket.js";
import type { Logger } from "../logger.js";
import { asProtocolError, runTransportNeutralCommand } from "../protocol/protocol-commands.js";
import { openThreadEventStream, requireRun, type ReplayFrom, type ReplayPart } from "../protocol/protocol-stream.js";
import {
  errorResponse,
  eventFilterOf,
  filterOfSubscriptionId,
  parseCommand,
  ProtocolError,
  sinceOf,
  subscriptionIdOf,
  compareEvents,
  frameBytesOf,
  matchesFilter,
  type EventFilter,
  type ProtocolCommand,
  type ProtocolEvent,
} from "../protocol/protocol-wire.js";
import { configurableHeadersPolicy } from "../rest/configurable-headers.js";
import { createServiceContext, type HangarRuntime } from "../runtime.js";
import type { ServiceContext } from "../services/service-context.js";
import { mountPrefixOf, pathUnderPrefix } from "./mount-prefix.js";
import { closeReason, isCredentialProtocol, refusalCloseCode, subprotocolCredentials } from "./websocket-credentials.js";

const STREAM_PATH = /^\/threads\/([^/]+)\/stream\/events$/;

/** Past this many bytes queued for one socket, its reader is too slow: closed, not buffered on. */
export const MAX_SOCKET_BACKLOG_BYTES = 16 * 1024 * 1024;
/** Close code for a reader that fell that far behind (1008: policy violation). */
export const SLOW_CONSUMER_CLOSE = 1008;

/** The thread id of a protocol stream's upgrade path (under `http.mount_prefix`), else null. */
export function protocolStreamThreadId(pathname: string, mountPrefix: string): string | null {
  const match = STREAM_PATH.exec(pathUnderPrefix(pathname, mountPrefix) ?? "");
  return match ? decodeURIComponent(match[1]!) : null;
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
  const mountPrefix = mountPrefixOf(runtime.deployment);

  const onUpgrade = async (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const { pathname } = new URL(request.url ?? "/", "http://localhost");
    const threadId = protocolStreamThreadId(pathname, mountPrefix);
    if (threadId === null) return;
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
      new ProtocolSocket(webSocket, socket, { ctx, threadId, runHeaders: runHeadersOf(fetchRequest.headers) }).start(runtime.config.protocolHeartbeatMs);
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
  /** The socket's subscriptions by id; one live stream serves them all, each event sent once. */
  private readonly subscriptions = new Map<string, EventFilter>();
  private liveStream: AbortController | undefined;
  /** Each subscription counted open in the metrics until it ends (its counter's closer). */
  private readonly openCounts = new Map<string, (() => void) | undefined>();
  /** The last event the live stream sent, or where the replay before it ended (an event id). */
  private delivered: string | undefined;
  private queue: Promise<void> = Promise.resolve();
  /** Settles when the command in progress has been answered; live events wait for it. */
  private commandRunning: Promise<void> | undefined;
  /** Frames received and not yet being handled. */
  private framesWaiting = 0;
  /** Replays (and their live pumps) of subscriptions answered while more commands were queued. */
  private heldReplays: { events: ProtocolEvent[]; starts: Array<() => void> } = { events: [], starts: [] };
  private alive = true;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly socket: WebSocket,
    /**
     * The connection under the WebSocket, corked while a batch of events is sent: ws writes each
     * frame on its own, one system call each, which was most of a busy socket's CPU (writev was
     * 16% of the server's profile with 100 sockets on one thread); corked, a batch is one write.
     */
    private readonly connection: Duplex,
    private readonly context: { ctx: ServiceContext; threadId: string; runHeaders: Record<string, string> },
  ) {}

  private get log(): Logger {
    return this.context.ctx.log;
  }

  /** Pings every `heartbeatMs`; a socket that answered none of the last interval's is gone (a proxy or a NAT dropped it). */
  start(heartbeatMs: number): void {
    this.socket.on("message", (data, isBinary) => {
      // In order: a subscribe answered before the next run.start runs sees all of that run.
      this.framesWaiting++;
      this.queue = this.queue.then(() =>
        this.exclusively(() => {
          this.framesWaiting--;
          return this.onFrame(isBinary ? null : data.toString());
        }),
      );
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

  /**
   * Runs a command with live events held back: a subscribe's answer and replay go out whole, and
   * no other subscription's live event lands in between. Replays wait while more commands are
   * queued, then go out as one, in stream order, each event once (the client hands an event to
   * every subscription it matches). The SDK subscribes twice at once right after run.start: had
   * a fast run's end reached it through the first replay before the second's events, it would
   * pause the second subscription before that one saw the run.
   */
  private async exclusively(command: () => Promise<void>): Promise<void> {
    let done = () => {};
    this.commandRunning = new Promise<void>((resolve) => (done = resolve));
    try {
      await command();
    } finally {
      if (this.framesWaiting === 0) this.flushReplays();
      this.commandRunning = undefined;
      done();
    }
  }

  private flushReplays(): void {
    const { events, starts } = this.heldReplays;
    this.heldReplays = { events: [], starts: [] };
    const seen = new Set<string>();
    this.connection.cork();
    try {
      for (const event of events.sort(compareEvents)) {
        if (seen.has(event.event_id)) continue;
        seen.add(event.event_id);
        this.send(event);
      }
    } finally {
      this.connection.uncork();
    }
    for (const start of starts) start();
  }

  private stop(): void {
    clearInterval(this.heartbeat);
    this.liveStream?.abort();
    this.subscriptions.clear();
    for (const close of this.openCounts.values()) close?.();
    this.openCounts.clear();
  }

  private send(message: object): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    const frame = frameBytesOf(message);
    // The bound counts what this frame would add; a frame alone on an empty queue always goes (a
    // thread's state may outgrow the bound, and a reader that keeps up must still get it).
    const backlog = this.socket.bufferedAmount;
    if (backlog > 0 && backlog + frame.length > MAX_SOCKET_BACKLOG_BYTES) {
      this.log.warn({ backlog }, "protocol WebSocket reader too slow; closing");
      this.socket.close(SLOW_CONSUMER_CLOSE, `slow consumer: over ${MAX_SOCKET_BACKLOG_BYTES} bytes unsent`);
      this.stop();
      return;
    }
    this.socket.send(frame, { binary: false });
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
      this.heldReplays.events.push(...(result.after ?? []));
      if (result.afterSent) this.heldReplays.starts.push(result.afterSent);
    } catch (error) {
      const refusal = asProtocolError(error);
      if (refusal instanceof ProtocolError) return this.send(errorResponse(command.id, refusal));
      if (refusal instanceof AuthRefusalError) return this.send(errorResponse(command.id, new ProtocolError("permission_denied", refusal.message)));
      this.log.error({ err: error, method: command.method }, "protocol command failed");
      this.send(errorResponse(command.id, new ProtocolError("unknown_error", "internal error")));
    }
  }

  private async run(command: ProtocolCommand): Promise<{ result: Record<string, unknown>; after?: ProtocolEvent[]; afterSent?: () => void }> {
    if (command.method === "subscription.subscribe") {
      const filter = eventFilterOf(command.params);
      const since = sinceOf(command.params);
      const opened = await this.subscribe([[subscriptionIdOf(filter, randomUUID()), filter]], { since }, true);
      return { result: { subscription_id: opened.ids[0], replayed_events: opened.replayedForNew }, after: opened.replayed, afterSent: opened.start };
    }
    if (command.method === "subscription.reconnect") return this.reconnect(command.params);
    if (command.method === "subscription.unsubscribe") {
      const id = command.params.subscription_id;
      if (typeof id !== "string" || !this.subscriptions.delete(id)) throw new ProtocolError("no_such_subscription", `no subscription '${String(id)}' on this connection`);
      this.openCounts.get(id)?.();
      this.openCounts.delete(id);
      if (this.subscriptions.size === 0) this.liveStream?.abort();
      return { result: {} };
    }
    return { result: await runTransportNeutralCommand(this.context, command) };
  }

  /**
   * Adds subscriptions: the socket's live stream is reopened for all of them, replaying the new
   * ones from `from` and the others from the last event already sent to them (nothing lost in
   * the switch, nothing sent twice). Returns the replay to send, then `start` pumps live events.
   */
  private async subscribe(added: Array<readonly [string, EventFilter]>, from: ReplayFrom, createThread = false) {
    const others = [...this.subscriptions].filter(([id]) => !added.some(([addedId]) => addedId === id)).map(([, filter]) => filter);
    const wantedBy = (filters: EventFilter[]) => (event: ProtocolEvent) => filters.some((filter) => matchesFilter(filter, event));
    const parts: ReplayPart[] = [{ ...from, matches: wantedBy(added.map(([, filter]) => filter)) }];
    if (others.length > 0) parts.push({ ...(this.delivered ? { afterEventId: this.delivered } : { since: 0 }), matches: wantedBy(others) });
    const abort = new AbortController();
    const { ctx, threadId } = this.context;
    const stream = await openThreadEventStream(ctx, { threadId, createThread, parts, signal: abort.signal });
    this.liveStream?.abort();
    this.liveStream = abort;
    for (const [id, filter] of added) {
      if (!this.subscriptions.has(id)) this.openCounts.set(id, ctx.metrics?.webSocketSubscriptions.open());
      this.subscriptions.set(id, filter);
    }
    // Positions start at 1; a replay of nothing leaves nothing to resume after.
    this.delivered = stream.position > 0 ? `${stream.position}:999999` : undefined;
    return {
      ids: added.map(([id]) => id),
      replayed: stream.replayed,
      replayedForNew: stream.replayedPerPart[0]!,
      // Live events only after the answer and the replay are sent.
      start: () => void this.pump(abort.signal, stream.livePages),
    };
  }

  /**
   * A new socket restoring an old one's subscriptions (their ids carry their filters) after the
   * last event the client processed: what it missed is replayed, then live events follow.
   */
  private async reconnect(params: Record<string, unknown>) {
    const { ctx, threadId } = this.context;
    const { run_id: runId, last_event_id: lastEventId, subscriptions = [] } = params;
    if (typeof runId !== "string" || runId === "") throw new ProtocolError("invalid_argument", "run_id must be a non-empty string");
    if (lastEventId !== undefined && typeof lastEventId !== "string") throw new ProtocolError("invalid_argument", "last_event_id must be a string");
    if (!Array.isArray(subscriptions)) throw new ProtocolError("invalid_argument", "subscriptions must be a list of subscription ids");
    const restored = subscriptions.map((id) => [id as string, filterOfSubscriptionId(id)] as const);
    await requireRun(ctx, threadId, runId);
    const opened = await this.subscribe(restored, lastEventId === undefined ? { since: 0 } : { afterEventId: lastEventId });
    return {
      result: { restored: true, missed_events: opened.replayedForNew, subscriptions: opened.ids },
      after: opened.replayed,
      afterSent: opened.start,
    };
  }

  /** Whether any subscription of the socket wants the event (read per event: unsubscribing takes effect at once). */
  private wants(event: ProtocolEvent): boolean {
    for (const filter of this.subscriptions.values()) if (matchesFilter(filter, event)) return true;
    return false;
  }

  private async pump(signal: AbortSignal, pages: AsyncGenerator<ProtocolEvent[]>): Promise<void> {
    try {
      for await (const page of pages) {
        while (this.commandRunning !== undefined) await this.commandRunning;
        // A newer stream took over (its replay covers what this one had not sent).
        if (signal.aborted) return;
        this.connection.cork();
        try {
          // Filtered here, after any command: an unsubscribe answered a moment ago holds.
          for (const event of page) {
            if (this.wants(event)) this.send(event);
            this.delivered = event.event_id;
          }
        } finally {
          this.connection.uncork();
        }
      }
    } catch (error) {
      if (signal.aborted) return;
      this.log.error({ err: error }, "protocol live stream failed; closing its socket");
      this.socket.close(1011, "subscription failed");
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
