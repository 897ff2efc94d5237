import { mountPrefixOf } from "../http/mount-prefix.js";
import { formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS } from "@a2a-js/sdk";
import { isLegacyJsonRpcMethod, isV1JsonRpcMethod } from "@a2a-js/sdk/compat/v0_3";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { JsonRpcTransportHandler, ServerCallContext } from "@a2a-js/sdk/server";
import { Hono, type Context } from "hono";
import { NotFoundError } from "../domain/errors.js";
import { describeUnstorableText, findUnstorableText } from "../domain/storable-text.js";
import { exposedAssistants, isProtocolDisabled } from "../graphs/agent-protocols-config.js";
import { readBoundedJson } from "../http/bounded-body.js";
import type { ParsedJson } from "../domain/json-depth.js";
import type { HttpEnv } from "../http/http-env.js";
import { configurableHeadersPolicy } from "../rest/configurable-headers.js";
import { createServiceContext, type HangarRuntime } from "../runtime.js";
import { agentCallsService } from "../services/agent-calls.service.js";
import { assistantsService } from "../services/assistants.service.js";
import { agentCardJson, agentCardOf, legacyAgentCardJson, type CardAuth } from "./a2a-card.js";
import { RunsA2AHandler } from "./a2a-handler.js";

type Version = "1.0" | "0.3";
type JsonRpcId = string | number | null;

/**
 * A2A at /a2a/{assistant_id}: the agent card at /a2a/{assistant_id}/.well-known/agent-card.json
 * (the path the @a2a-js/sdk client fetches from the agent's URL given with a trailing slash: it
 * resolves ".well-known/agent-card.json" against it; agent.json too, for 0.2 clients) and JSON-RPC at /a2a/{assistant_id}. A2A 1.0 requests (A2A-Version: 1.0) and 0.3
 * ones (no header, or 0.3: message/send, message/stream, tasks/get, tasks/cancel, …) are both
 * served, by the SDK's transport handlers over RunsA2AHandler. Requests were authenticated by
 * Hangar's middleware; reading the assistant is authorized like GET /assistants/{id}.
 */
export function mountA2a(app: Hono<HttpEnv>, runtime: HangarRuntime): void {
  if (isProtocolDisabled(runtime.deployment, "a2a")) return;
  const exposed = exposedAssistants(runtime.deployment, "a2a", runtime.graphs.names());
  const runHeaders = configurableHeadersPolicy(runtime.deployment);
  const auth: CardAuth = runtime.customAuth?.authenticate ? "custom" : runtime.config.apiKeys.length > 0 ? "api-key" : "none";
  const routes = new Hono<HttpEnv>();

  const agentOf = async (c: Context<HttpEnv>) => {
    const ctx = createServiceContext(runtime, c.get("actor"), c.get("log"));
    const assistantId = c.req.param("assistant_id")!;
    const assistant = await assistantsService.get(ctx, assistantId);
    if (!agentCallsService.isExposed(assistant, exposed)) throw new NotFoundError(`Assistant '${assistantId}' not found`);
    const url = new URL(`${mountPrefixOf(runtime.deployment)}/a2a/${assistant.assistantId}`, c.req.url).toString();
    return { ctx, assistant, url, card: agentCardOf(assistant, url, auth) };
  };

  const serveCard = async (c: Context<HttpEnv>) => {
    const { card, url } = await agentOf(c);
    c.header("Vary", "A2A-Version");
    return c.json(versionOf(c) === "1.0" ? (agentCardJson(card) as object) : legacyAgentCardJson(card, url));
  };
  routes.get("/:assistant_id/.well-known/agent-card.json", serveCard);
  routes.get("/:assistant_id/.well-known/agent.json", serveCard);

  const serveRpc = async (c: Context<HttpEnv>) => {
    const { ctx, assistant, card } = await agentOf(c);
    const version = versionOf(c);
    const checked = checkEnvelope(await readBoundedJson(c.req.raw, runtime.config.maxBodyBytes), version);
    if ("error" in checked) return c.json(checked);
    const handler = new RunsA2AHandler(ctx, assistant, card, runHeaders(c.req.raw.headers));
    const context = new ServerCallContext({ requestedVersion: version ?? undefined });
    const transport = version === "1.0" ? new JsonRpcTransportHandler(handler) : new LegacyJsonRpcTransportHandler(handler);
    const mapError = version === "1.0" ? JsonRpcTransportHandler.mapToJSONRPCError : LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError;
    const answer = await transport.handle(checked.request, context);
    if (!isAsyncIterable(answer)) return c.json(answer);
    return streamAnswer(answer, checked.id, mapError);
  };
  // With or without a trailing slash: clients given ".../a2a/{id}/" post there.
  routes.post("/:assistant_id", serveRpc);
  routes.post("/:assistant_id/", serveRpc);

  app.route("/a2a", routes);
}

/** A2A-Version decides the dialect; none means 0.3, as the spec says. Others get -32009 in a body. */
function versionOf(c: Context): Version | null {
  const header = c.req.header("a2a-version")?.trim();
  if (header === undefined || header === "" || /^0\.3(\.\d+)?$/.test(header)) return "0.3";
  return /^1(\.0)?(\.\d+)?$/.test(header) ? "1.0" : null;
}

function rpcError(id: JsonRpcId, code: number, message: string) {
  return { jsonrpc: "2.0" as const, id, error: { code, message } };
}

/**
 * The JSON-RPC envelope, checked before the SDK sees it so each mistake gets its own code and a
 * message naming it (the SDK folds parse errors and bad envelopes into one "malformed" code).
 */
function checkEnvelope(parsed: ParsedJson | null, version: Version | null): { request: Record<string, unknown>; id: JsonRpcId } | ReturnType<typeof rpcError> {
  if (parsed === null) return rpcError(null, -32700, "Parse error: the body is not valid JSON (it is empty)");
  // Nesting past the depth limit is refused before parsing, as on every transport.
  if (!parsed.ok && parsed.problem === "depth") return rpcError(null, -32600, `Invalid Request: ${parsed.message}`);
  if (!parsed.ok) return rpcError(null, -32700, `Parse error: the ${parsed.message}`);
  const body = parsed.value;
  if (Array.isArray(body)) return rpcError(null, -32600, "Invalid Request: batch requests are not supported; send one JSON-RPC object");
  if (typeof body !== "object" || body === null) return rpcError(null, -32600, "Invalid Request: the body must be a JSON-RPC 2.0 request object");
  const request = body as Record<string, unknown>;
  const rawId = request.id;
  const idValid = rawId === undefined || rawId === null || typeof rawId === "string" || (typeof rawId === "number" && Number.isInteger(rawId));
  const id = idValid ? ((rawId ?? null) as JsonRpcId) : null;
  if (request.jsonrpc !== "2.0") return rpcError(id, -32600, `Invalid Request: "jsonrpc" must be "2.0"`);
  if (!idValid) return rpcError(null, -32600, `Invalid Request: "id" must be a string, an integer or null`);
  if (typeof request.method !== "string" || request.method === "") return rpcError(id, -32600, `Invalid Request: "method" must be a non-empty string`);
  const method = request.method;
  if (version === null) return rpcError(id, -32009, "Unsupported A2A-Version: this agent speaks A2A 1.0 and 0.3");
  if (version === "1.0" && !isV1JsonRpcMethod(method)) {
    const hint = isLegacyJsonRpcMethod(method) ? ` ('${method}' is an A2A 0.3 method: send A2A-Version: 0.3 or no A2A-Version header)` : "";
    return rpcError(id, -32601, `Method not found: '${method}'${hint}`);
  }
  if (version === "0.3" && !isLegacyJsonRpcMethod(method)) {
    const hint = isV1JsonRpcMethod(method) ? ` ('${method}' is an A2A 1.0 method: send A2A-Version: 1.0)` : "";
    return rpcError(id, -32601, `Method not found: '${method}' (A2A 0.3 methods: message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe)${hint}`);
  }
  if (request.params !== undefined && (typeof request.params !== "object" || request.params === null || Array.isArray(request.params))) {
    return rpcError(id, -32602, `Invalid params: "params" must be an object`);
  }
  // Text PostgreSQL cannot store (NUL, lone surrogates) is refused naming where, as everywhere.
  const unstorable = findUnstorableText(request.params, "params");
  if (unstorable) return rpcError(id, -32602, `Invalid params: ${describeUnstorableText(unstorable)}`);
  return { request, id };
}

function isAsyncIterable<T>(value: unknown): value is AsyncGenerator<T, void, undefined> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] === "function";
}

/**
 * A streaming answer as SSE. An error before the first event (bad params, unknown task) is a
 * plain JSON-RPC error response instead, so nothing runs and the client sees one answer.
 */
async function streamAnswer(
  events: AsyncGenerator<unknown, void, undefined>,
  id: JsonRpcId,
  mapError: (error: unknown) => unknown,
): Promise<Response> {
  let first: IteratorResult<unknown, void>;
  try {
    first = await events.next();
  } catch (error) {
    return Response.json({ jsonrpc: "2.0", id, error: mapError(error) });
  }
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (!first.done) controller.enqueue(encoder.encode(formatSSEEvent(first.value)));
    },
    async pull(controller) {
      try {
        const next = await events.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(formatSSEEvent(next.value)));
      } catch (error) {
        controller.enqueue(encoder.encode(formatSSEErrorEvent({ jsonrpc: "2.0", id, error: mapError(error) })));
        controller.close();
      }
    },
    // The client went away: stop reading the run (the task itself goes on, as A2A tasks do).
    async cancel() {
      await events.return();
    },
  });
  return new Response(first.done ? null : stream, { headers: SSE_HEADERS });
}
