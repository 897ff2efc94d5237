import { randomUUID } from "node:crypto";
import type http from "node:http";
import type { Duplex } from "node:stream";
import { GraphQLError, type ExecutionArgs } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { UnauthenticatedError } from "../domain/errors.js";
import { authenticateRequest, presentsApiKey } from "../http/api-keys.js";
import type { Logger } from "../logger.js";
import type { HangarRuntime } from "../runtime.js";
import type { Actor } from "../services/service-context.js";
import type { GraphqlServer } from "./yoga.js";

type Enveloped = ReturnType<GraphqlServer["getEnveloped"]>;

/** Who opened a connection: decided at upgrade from headers, or at connection_init from its params. */
interface Caller {
  actor: Actor | null;
  log: Logger;
}

/**
 * graphql-ws on the HTTP server's /graphql path, authenticated by the same helper as HTTP
 * requests. A key in the upgrade's headers is decided there (a wrong one is a 401 before any
 * WebSocket exists). Browsers cannot set headers on a WebSocket, so an upgrade without a key is
 * accepted and the key must then arrive in connection_init's payload (`connectionParams`:
 * `{"x-api-key": key}` or `{"authorization": "Bearer key"}`); without a valid one the socket is
 * closed with 4403 before any operation runs. Every operation runs through Yoga's enveloped
 * pipeline, so context, error masking and plugins are exactly those of HTTP.
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

  const onUpgrade = (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const { pathname } = new URL(request.url ?? "/", "http://localhost");
    if (pathname !== graphql.graphqlEndpoint) {
      socket.destroy();
      return;
    }
    const actor = authenticateRequest(runtime.config.apiKeys, request.headers);
    if (!actor && presentsApiKey(request.headers)) {
      refuseUpgrade(socket, 401, new UnauthenticatedError().message);
      return;
    }
    const requestId = headerValue(request.headers["x-request-id"]) ?? randomUUID();
    callers.set(request, { actor, log: runtime.log.child({ requestId, transport: "graphql-ws" }) });
    webSockets.handleUpgrade(request, socket, head, (webSocket) => webSockets.emit("connection", webSocket, request));
  };
  httpServer.on("upgrade", onUpgrade);

  const server = useServer(
    {
      execute: (args: ExecutionArgs) => pipelineOf(args).execute(args),
      subscribe: (args: ExecutionArgs) => pipelineOf(args).subscribe(args),
      // Returning false closes the socket with 4403 Forbidden (graphql-ws's own refusal).
      onConnect: (ctx) => {
        const caller = callers.get(ctx.extra.request);
        if (!caller) return false;
        caller.actor ??= authenticateRequest(runtime.config.apiKeys, connectionParamsAsHeaders(ctx.connectionParams));
        return caller.actor !== null;
      },
      onSubscribe: async (ctx, _id, payload) => {
        const caller = callers.get(ctx.extra.request);
        if (!caller?.actor) throw new Error("graphql-ws operation on an unauthenticated connection");
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

function refuseUpgrade(socket: Duplex, status: 401, detail: string): void {
  const body = JSON.stringify({ detail });
  socket.end(
    `HTTP/1.1 ${status} Unauthorized\r\n` +
      "Connection: close\r\n" +
      "Content-Type: application/json\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      "\r\n" +
      body,
  );
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
