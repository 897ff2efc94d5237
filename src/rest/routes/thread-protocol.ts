import { Hono } from "hono";
import { z } from "zod";
import { AuthRefusalError } from "../../domain/errors.js";
import type { HttpEnv } from "../../http/http-env.js";
import { asProtocolError, runTransportNeutralCommand } from "../../protocol/protocol-commands.js";
import { openProtocolEventStream } from "../../protocol/protocol-stream.js";
import { errorResponse, eventFilterOf, frameOf, parseCommand, ProtocolError, resumeAfterEventId, sinceOf, type ProtocolCommand } from "../../protocol/protocol-wire.js";
import { sseResponse } from "../../streaming/sse-response.js";
import type { HangarRuntime } from "../../runtime.js";
import { createRouteKit } from "./route-kit.js";

const JsonObjectBody = z.record(z.string(), z.unknown());

/**
 * LangGraph streaming protocol v2, SSE profile: `POST /threads/{thread_id}/stream/events` (a
 * filtered event stream: channels, namespaces, depth, since) and `POST /threads/{thread_id}/commands`
 * (one command in, its response out). Subscriptions here are the event streams themselves, so the
 * subscription commands are WebSocket-only. The WebSocket profile is http/protocol-websocket.ts.
 */
export function threadProtocolRoutes(runtime: HangarRuntime): Hono<HttpEnv> {
  const { serviceContext: ctx, body, runHeaders } = createRouteKit(runtime);
  const routes = new Hono<HttpEnv>();

  routes.post("/:thread_id/stream/events", async (c) => {
    const params = await body(c, JsonObjectBody);
    let filter;
    let since;
    // A reconnecting EventSource names the last event it saw; an explicit `since` wins.
    const lastEventId = c.req.header("last-event-id");
    try {
      filter = eventFilterOf(params);
      since = sinceOf(params);
      if (since === undefined && lastEventId !== undefined && !resumeAfterEventId(lastEventId)) {
        throw new ProtocolError("invalid_argument", `Last-Event-ID '${lastEventId}' is not an event id of this server`);
      }
    } catch (error) {
      if (error instanceof ProtocolError) return c.json(errorResponse(null, error), 400);
      throw error;
    }
    const threadId = c.req.param("thread_id");
    const abort = new AbortController();
    const resumeFrom = since === undefined && lastEventId !== undefined ? { afterEventId: lastEventId } : { since };
    const stream = await openProtocolEventStream(ctx(c), { threadId, createThread: true, filter, signal: abort.signal, ...resumeFrom });
    async function* frames() {
      for (const event of [...stream.replayed]) yield event;
      yield* stream.live;
    }
    return sseResponse(
      (async function* () {
        for await (const event of frames()) {
          yield { runId: "", threadId, seq: 0, event: event.method, data: frameOf(event), streamId: event.event_id };
        }
      })(),
      { abort, heartbeatMs: runtime.config.protocolHeartbeatMs, openStreams: ctx(c).metrics?.sseStreams },
    );
  });

  routes.post("/:thread_id/commands", async (c) => {
    const frame = await body(c, JsonObjectBody);
    let command: ProtocolCommand;
    try {
      command = parseCommand(frame);
    } catch (error) {
      if (error instanceof ProtocolError) return c.json(errorResponse(null, error), 400);
      throw error;
    }
    if (command.method.startsWith("subscription.") && command.method !== "subscription.reconnect") {
      const refusal = new ProtocolError("not_supported", `${command.method} is for WebSocket connections; over HTTP, POST /threads/{thread_id}/stream/events is the subscription`);
      return c.json(errorResponse(command.id, refusal));
    }
    try {
      const result = await runTransportNeutralCommand({ ctx: ctx(c), threadId: c.req.param("thread_id"), runHeaders: runHeaders(c) }, command);
      return c.json({ type: "success", id: command.id, result });
    } catch (error) {
      // A deployment's auth handler refusing answers its own status, as on every route.
      if (error instanceof AuthRefusalError) throw error;
      const refusal = asProtocolError(error);
      if (refusal instanceof ProtocolError) return c.json(errorResponse(command.id, refusal));
      throw error;
    }
  });

  return routes;
}
