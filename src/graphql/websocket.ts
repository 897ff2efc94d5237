import { randomUUID } from "node:crypto";
import type http from "node:http";
import type { Duplex } from "node:stream";
import { GraphQLError, type ExecutionArgs } from "graphql";
import { CloseCode } from "graphql-ws";
import type { OpenCounter } from "../metrics/hangar-metrics.js";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer, type WebSocket } from "ws";
import { authenticateCaller } from "../auth/authenticate-request.js";
import { credentialExpiry } from "../auth/credential-expiry.js";
import { AppError, AuthRefusalError } from "../domain/errors.js";
import { presentsApiKey } from "../auth/api-keys.js";
import type { Logger } from "../logger.js";
import type { HangarRuntime } from "../runtime.js";
import type { Actor } from "../services/service-context.js";
import { mountPrefixOf } from "../http/mount-prefix.js";
import { protocolStreamThreadId } from "../http/protocol-websocket.js";
import { socketOperationRefusal } from "./query-limits.js";
import type { GraphqlServer } from "./yoga.js";

type Enveloped = ReturnType<GraphqlServer["getEnveloped"]>;

/** Who opened a connection: decided at upgrade from headers, or at connection_init from its params. */
interface Caller {
  actor: Actor | null;
  log: Logger;
  /** connection_init's params read as headers, when the credentials came from there. */
  paramHeaders: Record<string, string>;
}

// setTimeout's longest delay (~24.8 days); a later expiry re-arms the timer.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * graphql-ws on the HTTP server's /graphql path, authenticated by the same helper as HTTP
 * requests (API key, then the deployment's custom `authenticate`). Credentials in the upgrade's
 * headers are decided there (refused ones get the refusal's status before any WebSocket exists).
 * Browsers cannot set headers on a WebSocket, so an upgrade without credentials is accepted and
 * they must then arrive in connection_init's payload (`connectionParams`: `{"x-api-key": key}`
 * or `{"authorization": "Bearer token"}`), which `authenticate` sees as headers of the upgrade
 * request; without valid ones the socket is closed with 4403 before any operation runs.
 * Credentials are not trusted for the socket's whole life: each operation authenticates them
 * again (a refusal closes the socket with 4403), and a JWT's `exp` closes it with 4403 when it
 * passes (credential-expiry.ts), ending the subscriptions it carries. Every operation runs
 * through Yoga's enveloped pipeline, so context, error masking and plugins are exactly those of HTTP.
 * Returns a closer that stops accepting upgrades and closes open sockets.
 */
export function attachGraphqlWebSocket(
  httpServer: http.Server,
  graphql: GraphqlServer,
  runtime: HangarRuntime,
): () => Promise<void> {
  const webSockets = new WebSocketServer({ noServer: true });
  const callers = new WeakMap<http.IncomingMessage, Caller>();
  // The enveloped execute/subscribe of each operation, keyed by its context object.
  const pipelines = new WeakMap<object, Enveloped>();

  const authentication = { apiKeys: runtime.config.apiKeys, customAuth: runtime.customAuth };
  const authenticate = async (request: http.IncomingMessage, log: Logger, extraHeaders: Record<string, string> = {}) => {
    try {
      return await authenticateCaller(authentication, asFetchRequest(request, extraHeaders), log);
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
  };

  const onUpgrade = async (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const { pathname } = new URL(request.url ?? "/", "http://localhost");
    if (pathname !== graphql.graphqlEndpoint) {
      // The protocol's thread streams have their own upgrade listener (http/protocol-websocket.ts).
      if (protocolStreamThreadId(pathname, mountPrefixOf(runtime.deployment)) === null) socket.destroy();
      return;
    }
    const requestId = headerValue(request.headers["x-request-id"]) ?? randomUUID();
    const log = runtime.log.child({ requestId, transport: "graphql-ws" });
    const decided = await authenticate(request, log).catch((error: unknown) => {
      log.error({ err: error }, "authenticating a WebSocket upgrade failed");
      return null;
    });
    if (decided === null) {
      socket.destroy();
      return;
    }
    if (decided instanceof AppError && presentsApiKey(request.headers)) {
      refuseUpgrade(socket, decided);
      return;
    }
    callers.set(request, { actor: decided instanceof AppError ? null : decided, log, paramHeaders: {} });
    webSockets.handleUpgrade(request, socket, head, (webSocket) => webSockets.emit("connection", webSocket, request));
  };
  httpServer.on("upgrade", onUpgrade);

  const server = useServer(
    {
      execute: (args: ExecutionArgs) => pipelineOf(args).execute(args),
      subscribe: (args: ExecutionArgs) => pipelineOf(args).subscribe(args),
      // Returning false closes the socket with 4403 Forbidden (graphql-ws's own refusal).
      onConnect: async (ctx) => {
        const caller = callers.get(ctx.extra.request);
        if (!caller) return false;
        if (caller.actor === null) {
          const paramHeaders = connectionParamsAsHeaders(ctx.connectionParams);
          const decided = await authenticate(ctx.extra.request, caller.log, paramHeaders);
          if (decided instanceof AppError) return false;
          caller.actor = decided;
          caller.paramHeaders = paramHeaders;
        }
        const expiresAt = credentialExpiry(requestHeaders(ctx.extra.request, caller.paramHeaders));
        if (expiresAt === null) return true;
        if (expiresAt.getTime() <= Date.now()) return false;
        closeWhenExpired(ctx.extra.socket, expiresAt);
        return true;
      },
      // Subscriptions in flight, for metrics: the stream's return (client complete, socket close
      // or its end) closes the count.
      onOperation: (_ctx, _id, _payload, _args, result) => {
        const subscriptions = runtime.metrics?.webSocketSubscriptions;
        if (!subscriptions || !isAsyncIterable(result)) return undefined;
        return countedWhileOpen(result, subscriptions);
      },
      onSubscribe: async (ctx, _id, payload) => {
        const caller = callers.get(ctx.extra.request);
        if (!caller?.actor) throw new Error("graphql-ws operation on an unauthenticated connection");
        // The cap is read before any await: the operations in flight are counted as this message
        // arrived, not after other operations' authentication settled.
        const overLimit = socketOperationRefusal(Object.keys(ctx.subscriptions).length, runtime.config.graphqlLimits.maxSubscriptionsPerSocket);
        if (overLimit) return [overLimit];
        // Still valid? (revoked, expired opaque token, a user the deployment no longer accepts)
        const current = await authenticate(ctx.extra.request, caller.log, caller.paramHeaders);
        if (current instanceof AppError) {
          ctx.extra.socket.close(CloseCode.Forbidden, "Forbidden");
          return [new GraphQLError("The connection's credentials are no longer accepted", { extensions: { code: "UNAUTHENTICATED" } })];
        }
        caller.actor = current;
        const pipeline = graphql.getEnveloped({
          ...ctx,
          actor: caller.actor,
          log: caller.log,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params: payload,
        });
        let document;
        try {
          document = pipeline.parse(payload.query);
        } catch (error) {
          if (error instanceof GraphQLError) return [error];
          throw error;
        }
        const errors = pipeline.validate(pipeline.schema, document);
        if (errors.length > 0) return errors;
        const contextValue = await pipeline.contextFactory();
        pipelines.set(contextValue, pipeline);
        return {
          schema: pipeline.schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue,
        };
      },
    },
    webSockets,
  );

  function pipelineOf(args: ExecutionArgs): Enveloped {
    const pipeline = pipelines.get(args.contextValue as object);
    if (!pipeline) throw new Error("graphql-ws operation without an enveloped pipeline");
    return pipeline;
  }

  return async () => {
    httpServer.off("upgrade", onUpgrade);
    await server.dispose();
    for (const client of webSockets.clients) client.terminate();
    await new Promise<void>((resolve) => webSockets.close(() => resolve()));
  };
}

/** The refusal as REST would send it: a handler's own status and message, else 401 JSON. */
export function refuseUpgrade(socket: Duplex, refusal: AppError): void {
  const custom = refusal instanceof AuthRefusalError;
  const status = custom ? refusal.status : refusal.code === "INTERNAL" ? 500 : 401;
  const body = custom ? refusal.message : JSON.stringify({ detail: refusal.message });
  socket.end(
    `HTTP/1.1 ${status} ${status === 500 ? "Internal Server Error" : "Unauthorized"}\r\n` +
      "Connection: close\r\n" +
      `Content-Type: ${custom ? "text/plain; charset=utf-8" : "application/json"}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      "\r\n" +
      body,
  );
}

/** Closes the socket with 4403 once `expiresAt` has passed; the socket's subscriptions end with it. */
function closeWhenExpired(socket: WebSocket, expiresAt: Date): void {
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const remaining = expiresAt.getTime() - Date.now();
    if (remaining <= 0) {
      socket.close(CloseCode.Forbidden, "Forbidden: credentials expired");
      return;
    }
    timer = setTimeout(check, Math.min(remaining, MAX_TIMER_MS));
    timer.unref();
  };
  socket.once("close", () => clearTimeout(timer));
  check();
}

/**
 * The upgrade as the fetch Request `authenticate` expects (method, url, headers), with
 * connection_init's params added as headers: that is where a browser puts its token.
 */
export function asFetchRequest(request: http.IncomingMessage, extraHeaders: Record<string, string>): Request {
  const url = new URL(request.url ?? "/", `http://${request.headers.host ?? "localhost"}`);
  return new Request(url, { method: request.method ?? "GET", headers: requestHeaders(request, extraHeaders) });
}

function requestHeaders(request: http.IncomingMessage, extraHeaders: Record<string, string>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
  return headers;
}

/** connection_init's payload read like headers: string values under lower-cased names. */
function connectionParamsAsHeaders(params: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    if (typeof value === "string") headers[name.toLowerCase()] = value;
  }
  return headers;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && Symbol.asyncIterator in value;
}

/**
 * The subscription's stream, counted until it ends or is returned. Not an async generator: a
 * generator waiting on its source's next event would queue return() behind that event, so a
 * client's complete (or a socket close) would not reach the source until the next event came.
 */
function countedWhileOpen<T>(source: AsyncIterable<T>, counter: OpenCounter): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  const close = counter.open();
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      try {
        const result = await iterator.next();
        if (result.done) close();
        return result;
      } catch (error) {
        close();
        throw error;
      }
    },
    async return(value?: unknown) {
      close();
      return iterator.return ? iterator.return(value) : { done: true, value: value as T };
    },
    async throw(error?: unknown) {
      close();
      if (iterator.throw) return iterator.throw(error);
      throw error;
    },
  };
}
