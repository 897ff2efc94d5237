import { AppError, AuthRefusalError } from "../domain/errors.js";
import type { JsonObject } from "../domain/json.js";
import type { Run } from "../domain/run.js";
import { runRequestOf } from "../domain/run-request.js";
import { assistantsService } from "../services/assistants.service.js";
import { createRun } from "../services/run-lifecycle/create-run.js";
import { runsService } from "../services/runs.service.js";
import type { ServiceContext } from "../services/service-context.js";
import { threadStateService } from "../services/thread-state.service.js";
import { threadsService } from "../services/threads.service.js";
import { isRecord } from "./protocol-events.js";
import { forkState, getState, listCheckpoints } from "./protocol-state-commands.js";
import { PROTOCOL_STREAM_MODES, ProtocolError, type ProtocolCommand } from "./protocol-wire.js";

/**
 * The protocol's commands that do not depend on the transport (run.start, input.respond,
 * input.inject, state.*, agent.getTree), on Hangar's services: the same rules, auth and errors as
 * every route. Subscriptions belong to the transport (http/protocol-websocket.ts, the SSE route).
 */


export interface CommandContext {
  ctx: ServiceContext;
  threadId: string;
  /** Request headers a run sees in config.configurable (http.configurable_headers). */
  runHeaders: Record<string, string>;
}

export async function runTransportNeutralCommand(context: CommandContext, command: ProtocolCommand): Promise<Record<string, unknown>> {
  try {
    switch (command.method) {
      case "run.start":
        return await startRun(context, command.params);
      case "input.respond":
        return await respondToInput(context, command.params);
      case "input.inject":
        return await injectInput(context, command.params);
      case "state.get":
        return await getState(context, command.params);
      case "state.listCheckpoints":
        return await listCheckpoints(context, command.params);
      case "state.fork":
        return await forkState(context, command.params);
      case "agent.getTree":
        return await getTree(context, command.params);
      case "subscription.reconnect":
        throw new ProtocolError("not_supported", "subscription.reconnect restores a WebSocket's subscriptions; over HTTP, reopen POST /threads/{thread_id}/stream/events with since (or Last-Event-ID)");
      default:
        throw new ProtocolError("unknown_command", `unknown method '${command.method}'`);
    }
  } catch (error) {
    throw asProtocolError(error);
  }
}

/**
 * Hangar's service errors as the protocol's codes. Passed on unchanged: a deployment's own auth
 * refusal (AuthRefusalError: HTTP answers its status; a socket says permission_denied) and
 * anything that is not an AppError (a bug).
 */
export function asProtocolError(error: unknown): unknown {
  if (error instanceof ProtocolError || error instanceof AuthRefusalError || !(error instanceof AppError)) return error;
  switch (error.code) {
    case "NOT_FOUND":
      return new ProtocolError("no_such_run", error.message);
    case "FORBIDDEN":
    case "UNAUTHENTICATED":
      return new ProtocolError("permission_denied", error.message);
    case "INTERNAL":
    case "UNAVAILABLE":
      return new ProtocolError("unknown_error", error.message);
    default:
      return new ProtocolError("invalid_argument", error.message);
  }
}

function optionalObject(params: Record<string, unknown>, name: string): JsonObject | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw new ProtocolError("invalid_argument", `${name} must be an object`);
  return value;
}

function withRunHeaders(config: JsonObject | undefined, headers: Record<string, string>): JsonObject | undefined {
  if (Object.keys(headers).length === 0) return config;
  const configurable = isRecord(config?.configurable) ? config.configurable : {};
  return { ...(config ?? {}), configurable: { ...configurable, ...headers } };
}

async function startRun({ ctx, threadId, runHeaders }: CommandContext, params: Record<string, unknown>) {
  const assistantId = params.assistant_id;
  if (typeof assistantId !== "string" || assistantId === "") throw new ProtocolError("invalid_argument", "assistant_id must be a non-empty string");
  const run = await createRun(ctx, protocolRunRequest(threadId, assistantId, params, runHeaders));
  return { run_id: run.runId };
}

function protocolRunRequest(threadId: string, assistantId: string, params: Record<string, unknown>, runHeaders: Record<string, string>) {
  const strategy = params.multitaskStrategy ?? params.multitask_strategy;
  return runRequestOf({
    threadId,
    assistantId,
    input: params.input ?? null,
    config: withRunHeaders(optionalObject(params, "config"), runHeaders),
    context: optionalObject(params, "context"),
    metadata: optionalObject(params, "metadata"),
    streamModes: [...PROTOCOL_STREAM_MODES],
    streamSubgraphs: true,
    // The protocol queues a run behind the thread's active one unless told otherwise.
    multitaskStrategy: strategy === undefined ? "enqueue" : (strategy as Run["multitaskStrategy"]),
    ifNotExists: "create",
  });
}

/** Answers interrupts by id: a run resuming the thread, only while it is interrupted. */
async function respondToInput({ ctx, threadId, runHeaders }: CommandContext, params: Record<string, unknown>) {
  const answers = Array.isArray(params.responses) ? params.responses : [params];
  const resume: Record<string, unknown> = {};
  for (const answer of answers) {
    if (!isRecord(answer) || typeof answer.interrupt_id !== "string" || !("response" in answer)) {
      throw new ProtocolError("invalid_argument", "input.respond needs interrupt_id (a string) and response, or responses: a list of them");
    }
    resume[answer.interrupt_id] = answer.response;
  }
  const thread = await threadsService.get(ctx, threadId);
  if (thread.status !== "interrupted") throw new ProtocolError("no_such_interrupt", `thread '${threadId}' is ${thread.status}, not interrupted`);
  const state = await threadStateService.getState(ctx, threadId);
  const pending = new Set(state.interrupts.map((interrupt) => String(interrupt.id)));
  const unknown = Object.keys(resume).find((id) => !pending.has(id));
  if (unknown !== undefined) throw new ProtocolError("no_such_interrupt", `interrupt '${unknown}' is not pending on thread '${threadId}'`);
  const [lastRun] = await runsService.list(ctx, { threadId, limit: 1, offset: 0 });
  if (!lastRun) throw new ProtocolError("no_such_run", `thread '${threadId}' has no run to resume`);
  const request = protocolRunRequest(threadId, lastRun.assistantId, params, runHeaders);
  const run = await createRun(ctx, {
    ...request,
    input: null,
    command: { resume, ...(isRecord(params.update) ? { update: params.update } : {}) },
  });
  return { run_id: run.runId };
}

/**
 * A user's (or system) message sent to the thread unasked: a run of the thread's assistant with
 * that message as input. It queues behind an active run (the graph reads it at its next run, not
 * mid-step; Hangar's runs take input only at their start) and runs now on an idle thread. An
 * interrupted thread takes input.respond instead.
 */
async function injectInput({ ctx, threadId, runHeaders }: CommandContext, params: Record<string, unknown>) {
  const { namespace = [], message } = params;
  if (!Array.isArray(namespace)) throw new ProtocolError("invalid_argument", "namespace must be a list of strings");
  if (namespace.length > 0) throw new ProtocolError("not_supported", "input.inject takes the root namespace only: a subgraph reads input from its parent");
  if (!isRecord(message) || (message.role !== "user" && message.role !== "system") || typeof message.content !== "string") {
    throw new ProtocolError("invalid_argument", "message must be {role: 'user' | 'system', content: string, name?: string}");
  }
  if (message.name !== undefined && typeof message.name !== "string") throw new ProtocolError("invalid_argument", "message.name must be a string");
  const thread = await threadsService.get(ctx, threadId);
  if (thread.status === "interrupted") throw new ProtocolError("invalid_argument", `thread '${threadId}' is interrupted: answer it with input.respond`);
  const [lastRun] = await runsService.list(ctx, { threadId, limit: 1, offset: 0 });
  if (!lastRun) throw new ProtocolError("no_such_run", `thread '${threadId}' has no run: start one with run.start`);
  const input = { messages: [{ role: message.role, content: message.content, ...(message.name ? { name: message.name } : {}) }] };
  const run = await createRun(ctx, protocolRunRequest(threadId, lastRun.assistantId, { input }, runHeaders));
  return { run_id: run.runId };
}

interface TreeNode {
  namespace: string[];
  status: string;
  graph_name: string;
  children: TreeNode[];
}

/** The run's agent tree: its graph, and every subgraph namespace its stored events name. */
async function getTree({ ctx, threadId }: CommandContext, params: Record<string, unknown>) {
  const runId = params.run_id;
  if (runId !== undefined && typeof runId !== "string") throw new ProtocolError("invalid_argument", "run_id must be a string");
  const run = runId ? await runsService.get(ctx, threadId, runId) : (await runsService.list(ctx, { threadId, limit: 1, offset: 0 }))[0];
  if (!run) throw new ProtocolError("no_such_run", `thread '${threadId}' has no run`);
  const assistant = await assistantsService.get(ctx, run.assistantId);
  const status = agentStatusOf(run.status);
  const root: TreeNode = { namespace: [], status, graph_name: assistant.graphId, children: [] };
  const seen = new Map<string, TreeNode>([["", root]]);
  for (let afterSeq = 0; ; ) {
    const events = await ctx.streaming.store.read(run.runId, run.threadId, afterSeq);
    if (events.length === 0) break;
    afterSeq = events.at(-1)!.seq;
    for (const event of events) {
      const namespace = event.event.split("|").slice(1);
      for (let depth = 1; depth <= namespace.length; depth++) {
        const key = namespace.slice(0, depth).join("|");
        if (seen.has(key)) continue;
        const node: TreeNode = { namespace: namespace.slice(0, depth), status, graph_name: namespace[depth - 1]!.split(":", 1)[0]!, children: [] };
        seen.get(namespace.slice(0, depth - 1).join("|"))!.children.push(node);
        seen.set(key, node);
      }
    }
  }
  return { tree: root };
}

function agentStatusOf(status: Run["status"]): string {
  if (status === "pending") return "started";
  if (status === "running") return "running";
  if (status === "success") return "completed";
  if (status === "interrupted") return "interrupted";
  return "failed";
}
