import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Hono } from "hono";
import { coerceError } from "../domain/errors.js";
import { describeUnstorableText, findUnstorableText } from "../domain/storable-text.js";
import { exposedAssistants, isProtocolDisabled } from "../graphs/agent-protocols-config.js";
import { readBoundedJson } from "../http/bounded-body.js";
import type { ParsedJson } from "../domain/json-depth.js";
import type { HttpEnv } from "../http/http-env.js";
import type { Logger } from "../logger.js";
import { configurableHeadersPolicy } from "../rest/configurable-headers.js";
import type { HangarRuntime } from "../runtime.js";
import type { Actor } from "../services/service-context.js";
import { createToolServer, type McpCaller } from "./mcp-tools.js";

/** A session nobody used for this long is closed (its client starts a new one). */
const SESSION_IDLE_MS = 30 * 60_000;
const SWEEP_EVERY_MS = 60_000;

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  /** Who opened it: requests of anyone else naming this session are answered as if it did not exist. */
  owner: string;
  lastSeen: number;
  stopListening: () => void;
}

/**
 * MCP over streamable HTTP at /mcp (the SDK's transport does the protocol: JSON-RPC parsing and
 * errors, version negotiation, SSE). Sessions live in this process's memory, so a deployment
 * with several API processes needs sticky sessions (by the Mcp-Session-Id header). Every request
 * has passed Hangar's authentication middleware; its actor is handed to the tool handlers.
 */
export function mountMcp(app: Hono<HttpEnv>, runtime: HangarRuntime): { close(): Promise<void> } | null {
  if (isProtocolDisabled(runtime.deployment, "mcp")) return null;
  const exposed = exposedAssistants(runtime.deployment, "mcp", runtime.graphs.names());
  const runHeaders = configurableHeadersPolicy(runtime.deployment);
  const sessions = new Map<string, Session>();

  const sweep = setInterval(() => {
    const cutoff = Date.now() - SESSION_IDLE_MS;
    for (const [id, session] of sessions) if (session.lastSeen < cutoff) void closeSession(id, session);
  }, SWEEP_EVERY_MS);
  sweep.unref();

  const closeSession = async (id: string, session: Session) => {
    sessions.delete(id);
    session.stopListening();
    await session.server.close().catch((error: unknown) => runtime.log.warn({ err: coerceError(error) }, "could not close an MCP session"));
  };

  const openSession = async (owner: string, log: Logger): Promise<Session> => {
    const server = createToolServer(runtime, exposed);
    const session: Session = {
      server,
      owner,
      lastSeen: Date.now(),
      stopListening: () => undefined,
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        maxRequestBodySize: runtime.config.maxBodyBytes,
        onsessioninitialized: (id) => {
          sessions.set(id, session);
          // Tool lists follow the assistants: created, updated, re-versioned or deleted.
          session.stopListening = runtime.streaming.signals.onAssistantsChanged(() => {
            void server.sendToolListChanged().catch((error: unknown) => log.warn({ err: coerceError(error) }, "could not send tools/list_changed"));
          });
        },
        onsessionclosed: (id) => void closeSession(id, session),
      }),
    };
    await server.connect(session.transport);
    return session;
  };

  app.all("/mcp", async (c) => {
    const actor = c.get("actor");
    const caller: McpCaller = { actor, log: c.get("log"), runHeaders: runHeaders(c.req.raw.headers) };
    const options = { authInfo: { token: "", clientId: ownerOf(actor), scopes: [], extra: { caller } }, parsedBody: undefined as unknown };
    if (c.req.method === "POST") {
      const parsed = parseMessages(await readBoundedJson(c.req.raw, runtime.config.maxBodyBytes));
      if (parsed instanceof Response) return parsed;
      options.parsedBody = parsed;
    }
    const sessionId = c.req.header("mcp-session-id");
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (!session || session.owner !== ownerOf(actor)) return sessionNotFound();
      session.lastSeen = Date.now();
      return session.transport.handleRequest(c.req.raw, options);
    }
    // No session yet: only an initialize request opens one; the transport answers anything else
    // with its error, and the unused session is dropped.
    const session = await openSession(ownerOf(actor), caller.log);
    const response = await session.transport.handleRequest(c.req.raw, options);
    if (session.transport.sessionId === undefined) await session.server.close();
    return response;
  });

  return {
    /** At shutdown: ends every session (and its SSE streams, which would hold the server open). */
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions].map(([id, session]) => closeSession(id, session)));
    },
  };
}

function rpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });
}

/**
 * A POST body, checked before the transport sees it so each mistake gets the JSON-RPC code the
 * spec gives it: not JSON → -32700; JSON that is no JSON-RPC message → -32600 naming what is
 * wrong (the transport reports both as parse errors); unstorable text → -32602 naming where.
 */
function parseMessages(parsed: ParsedJson | null): unknown {
  if (parsed === null) return rpcError(400, -32700, "Parse error: the body is not valid JSON (it is empty)");
  // Nesting past the depth limit is refused before parsing, as on every transport.
  if (!parsed.ok && parsed.problem === "depth") return rpcError(400, -32600, `Invalid Request: ${parsed.message}`);
  if (!parsed.ok) return rpcError(400, -32700, `Parse error: the ${parsed.message}`);
  const body = parsed.value;
  const messages = Array.isArray(body) ? body : [body];
  for (const message of messages) {
    if (JSONRPCMessageSchema.safeParse(message).success) continue;
    return rpcError(400, -32600, `Invalid Request: ${whyNotJsonRpc(message)}`);
  }
  // Text PostgreSQL cannot store (NUL, lone surrogates) is refused naming where, as everywhere.
  const unstorable = findUnstorableText(body, "body");
  if (unstorable) return rpcError(400, -32602, `Invalid params: ${describeUnstorableText(unstorable)}`);
  return body;
}

function whyNotJsonRpc(message: unknown): string {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return "a JSON-RPC 2.0 message must be an object";
  const fields = message as Record<string, unknown>;
  if (fields.jsonrpc !== "2.0") return `"jsonrpc" must be "2.0"`;
  if ("id" in fields && typeof fields.id !== "string" && typeof fields.id !== "number") return `"id" must be a string or a number`;
  if (!("method" in fields) && !("result" in fields) && !("error" in fields)) return `a message needs a "method" (request, notification), or a "result" or "error" (response)`;
  if ("method" in fields && typeof fields.method !== "string") return `"method" must be a string`;
  return "not a JSON-RPC 2.0 request, notification or response";
}

/** The identity a session belongs to: the user (custom auth), or the kind of caller. */
function ownerOf(actor: Actor): string {
  return actor.kind === "user" ? `user:${actor.user?.identity ?? ""}` : actor.kind;
}

/** As the MCP spec asks for an unknown or expired session: 404, so the client re-initializes. */
function sessionNotFound(): Response {
  return Response.json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }, { status: 404 });
}
