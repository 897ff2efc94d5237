import { randomUUID } from "node:crypto";
import type http from "node:http";
import type { Duplex } from "node:stream";
import { GraphQLError, type ExecutionArgs } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { UnauthenticatedError } from "../domain/errors.js";
import { authenticateRequest } from "../http/api-keys.js";
import type { HangarRuntime } from "../runtime.js";
import type { GraphqlServerContext } from "./context.js";
import type { GraphqlServer } from "./yoga.js";

type Enveloped = ReturnType<GraphqlServer["getEnveloped"]>;

/**
 * graphql-ws on the HTTP server's /graphql path. The upgrade is authenticated by the same helper
 * as HTTP requests (401 before any WebSocket exists), and every operation runs through Yoga's
 * enveloped pipeline, so context, error masking and plugins are exactly those of HTTP.
 * Returns a closer that stops accepting upgrades and closes open sockets.
 */
export function attachGraphqlWebSocket(
  httpServer: http.Server,
  graphql: GraphqlServer,
  runtime: HangarRuntime,
): () => Promise<void> {
  const webSockets = new WebSocketServer({ noServer: true });
  // Who opened each connection, decided once at upgrade time.
  const callers = new WeakMap<http.IncomingMessage, GraphqlServerContext>();
  // The enveloped execute/subscribe of each operation, keyed by its context object.
  const pipelines = new WeakMap<object, Enveloped>();

  const onUpgrade = (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const { pathname } = new URL(request.url ?? "/", "http://localhost");
    if (pathname !== graphql.graphqlEndpoint) {
      socket.destroy();
      return;
    }
    const actor = authenticateRequest(runtime.config.apiKeys, request.headers);
    if (!actor) {
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
      onSubscribe: async (ctx, _id, payload) => {
        const caller = callers.get(ctx.extra.request);
        if (!caller) throw new Error("graphql-ws connection without an authenticated upgrade");
        const pipeline = graphql.getEnveloped({
          ...ctx,
          ...caller,
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

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
