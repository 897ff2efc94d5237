import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaType } from "@modelcontextprotocol/sdk/validation/types.js";
import { z } from "zod";
import { asUnavailableError } from "../db/connection-loss.js";
import { AppError, coerceError } from "../domain/errors.js";
import type { RunStreamEvent } from "../domain/run-event.js";
import { isRunFinished, type RunStatus } from "../domain/run.js";
import type { Logger } from "../logger.js";
import { createServiceContext, type HangarRuntime } from "../runtime.js";
import {
  agentCallsService,
  lastAiMessageText,
  type CallableAssistant,
  type ExposedAssistants,
} from "../services/agent-calls.service.js";
import type { Actor } from "../services/service-context.js";
import { HANGAR_VERSION } from "../version.js";

/** Who sent the MCP request being handled: set per HTTP request (authInfo.extra). */
export interface McpCaller {
  actor: Actor;
  log: Logger;
  /** Request headers for the run's `config.configurable` (http.configurable_headers). */
  runHeaders: Record<string, string>;
}

// Names clients accept everywhere: MCP's charset, and the 64 characters some clients cap at.
const MAX_TOOL_NAME = 64;

interface NamedTool {
  name: string;
  callable: CallableAssistant;
}

/**
 * Tool names from assistant names, made unique: the first assistant (oldest) keeps the plain
 * name, later ones with the same name get their id's first 8 characters appended.
 */
export function nameTools(callables: CallableAssistant[]): NamedTool[] {
  const taken = new Set<string>();
  return callables.map((callable) => {
    const base = callable.assistant.name.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^_+|_+$/g, "").slice(0, MAX_TOOL_NAME) || "assistant";
    let name = base;
    if (taken.has(name)) name = `${base.slice(0, MAX_TOOL_NAME - 9)}_${callable.assistant.assistantId.slice(0, 8)}`;
    taken.add(name);
    return { name, callable };
  });
}

/** MCP wants an object schema; `$schema` is dropped so any draft the graph declares validates. */
function toolInputSchema(schema: Record<string, unknown> | null): Tool["inputSchema"] {
  const { $schema: _dialect, ...rest } = schema ?? {};
  return { ...rest, type: "object" } as Tool["inputSchema"];
}

function toTool({ name, callable }: NamedTool): Tool {
  const { assistant } = callable;
  return {
    name,
    title: assistant.name,
    description: assistant.description ?? `Runs the Hangar assistant "${assistant.name}" (graph ${assistant.graphId}) and returns its output.`,
    inputSchema: toolInputSchema(callable.inputSchema),
    _meta: { "hangar/assistant_id": assistant.assistantId, "hangar/graph_id": assistant.graphId },
  };
}

/**
 * One MCP session's server: every assistant the caller may read (and the deployment exposes) is
 * a tool; a call is a stateless run. The caller is read from each request, so a session is
 * authorized request by request like the REST API.
 */
export function createToolServer(runtime: HangarRuntime, exposed: ExposedAssistants | null): Server {
  const server = new Server({ name: "hangar", version: HANGAR_VERSION }, { capabilities: { tools: { listChanged: true } } });
  const validator = new AjvJsonSchemaValidator();

  const contextOf = (caller: McpCaller) => createServiceContext(runtime, caller.actor, caller.log);
  const toolsFor = async (caller: McpCaller) => nameTools(await agentCallsService.listCallable(contextOf(caller), exposed));

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    const caller = callerOf(extra.authInfo?.extra);
    const tools = await withServiceErrors(caller.log, () => toolsFor(caller));
    return { tools: tools.map(toTool) };
  });

  // Registered with a loose schema so that the SDK's own tools/call check answers malformed params
  // with InvalidParams naming the field (a strict schema here fails earlier, as an internal error).
  server.setRequestHandler(LooseCallToolRequest, async (loose, extra): Promise<CallToolResult> => {
    const request = CallToolRequestSchema.parse(loose);
    const caller = callerOf(extra.authInfo?.extra);
    const { name, arguments: args = {} } = request.params;
    const tools = await withServiceErrors(caller.log, () => toolsFor(caller));
    const tool = tools.find((candidate) => candidate.name === name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${name}'; tools: ${tools.map((t) => t.name).join(", ") || "(none)"}`);
    }
    const schema = toolInputSchema(tool.callable.inputSchema);
    const check = validator.getValidator(schema as JsonSchemaType)(args);
    if (!check.valid) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for tool '${name}': ${check.errorMessage}${unknownKeysOf(schema, args)}`);
    }

    const progressToken = request.params._meta?.progressToken;
    let steps = 0;
    const onEvent = (event: RunStreamEvent) => {
      if (progressToken === undefined || event.event !== "updates") return;
      steps += 1;
      const nodes = Object.keys(safeParse(event.data) ?? {}).join(", ");
      void extra
        .sendNotification({ method: "notifications/progress", params: { progressToken, progress: steps, message: `step ${steps}: ${nodes || "update"}` } })
        .catch((error: unknown) => caller.log.warn({ err: error }, "could not send an MCP progress notification"));
    };
    const result = await withServiceErrors(caller.log, () =>
      agentCallsService.callStateless(
        contextOf(caller),
        { assistantId: tool.callable.assistant.assistantId, input: args, headers: caller.runHeaders, metadata: { source: "mcp" } },
        { signal: extra.signal, onEvent },
      ),
    );
    return toolResult(result.run.runId, result.run.status, result.values, result.error);
  });

  return server;
}

/** A run's end as a tool result: a failed or cancelled run is a tool error (isError), as MCP asks. */
function toolResult(runId: string, status: RunStatus, values: Record<string, unknown>, error: { error?: string; message?: string } | null): CallToolResult {
  if (error !== null || status !== "success") {
    const cause = error
      ? `${error.error ?? "Error"}: ${error.message ?? ""}`
      : isRunFinished(status)
        ? `the run ended ${status}`
        : "the run was deleted before its end was known";
    return { isError: true, content: [{ type: "text", text: `Run ${runId} failed: ${cause}` }], _meta: { "hangar/run_id": runId } };
  }
  const reply = lastAiMessageText(values);
  return {
    content: [{ type: "text", text: reply ?? JSON.stringify(values) }],
    structuredContent: values,
    _meta: { "hangar/run_id": runId },
  };
}

const LooseCallToolRequest = z.looseObject({ method: z.literal("tools/call"), params: z.unknown().optional() });

/** Ajv's additionalProperties message names no property: name the unknown ones, and the known. */
function unknownKeysOf(schema: Tool["inputSchema"], args: Record<string, unknown>): string {
  if ((schema as { additionalProperties?: unknown }).additionalProperties !== false) return "";
  const known = Object.keys(schema.properties ?? {});
  const unknown = Object.keys(args).filter((key) => !known.includes(key));
  return unknown.length > 0 ? ` (unknown: ${unknown.join(", ")}; expected: ${known.join(", ") || "none"})` : "";
}

function callerOf(extra: Record<string, unknown> | undefined): McpCaller {
  const caller = extra?.caller as McpCaller | undefined;
  // Every request reaches the server through the /mcp route, which always sets the caller.
  if (!caller) throw new McpError(ErrorCode.InternalError, "MCP request without an authenticated caller");
  return caller;
}

/**
 * Service refusals become JSON-RPC errors naming the cause: bad input is InvalidParams, any other
 * expected refusal (not found, forbidden, busy) is InvalidRequest. Anything else is logged and
 * answered as an internal error without its details (the SDK would send the message as it is).
 */
async function withServiceErrors<T>(log: Logger, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof McpError) throw error;
    if (error instanceof AppError && error.code !== "INTERNAL" && error.code !== "UNAVAILABLE") {
      throw new McpError(error.code === "INVALID_INPUT" ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest, error.message);
    }
    // A lost database connection (classified as REST does) is worth a retry; say so.
    const unavailable = (error instanceof AppError && error.code === "UNAVAILABLE") || asUnavailableError(error) !== null;
    log.error({ err: coerceError(error) }, "MCP request failed");
    throw new McpError(ErrorCode.InternalError, unavailable ? "Service unavailable; retry shortly" : "Internal error");
  }
}

function safeParse(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
