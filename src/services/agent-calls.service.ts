import type { Assistant } from "../domain/assistant.js";
import type { ExposedAssistants } from "../graphs/agent-protocols-config.js";
import { coerceError } from "../domain/errors.js";
import { threadIdForContext } from "../domain/ids.js";
import type { JsonObject } from "../domain/json.js";
import type { Run, RunStatus, StreamMode } from "../domain/run.js";
import type { RunStreamEvent } from "../domain/run-event.js";
import { assistantsService } from "./assistants.service.js";
import { runResultsService, type RunResult } from "./run-results.service.js";
import type { RunStreamEvents } from "../streaming/read-run-stream.js";
import { runRequestOf, type RunCreateRequest } from "../domain/run-request.js";
import { cancelRuns } from "./run-lifecycle/cancel-run.js";
import { createRun } from "./run-lifecycle/create-run.js";
import { runsService } from "./runs.service.js";
import type { ServiceContext } from "./service-context.js";

/**
 * Assistants called as agents by other programs (MCP tools, A2A agents). Every call is an
 * ordinary run created through the run lifecycle (create-run.ts) (authorized, listed, streamable, traced); this module
 * only decides the run's shape and reads its end, so the protocol adapters stay thin.
 */

/** Which assistants a protocol exposes (langgraph.json http.mcp / http.a2a): null means all. */
export type { ExposedAssistants };

export interface CallableAssistant {
  assistant: Assistant;
  /** The graph's input JSON Schema, or null when the graph declares none Hangar can read. */
  inputSchema: Record<string, unknown> | null;
}

export interface AgentCallInput {
  assistantId: string;
  input: unknown;
  /** Request headers for `config.configurable` (http.configurable_headers). */
  headers?: Record<string, string>;
  metadata?: JsonObject;
}

/** How a run ended, from its stream: the last `values` and, if it failed, its error. */
export interface AgentCallResult {
  run: Run;
  values: RunResult;
  error: { error?: string; message?: string } | null;
}

// Tool lists are read in pages of this size; a deployment with more assistants still lists all.
const PAGE_SIZE = 100;
/** The server secret A2A context names are keyed with (domain/ids.ts threadIdForContext). */
const A2A_CONTEXT_SECRET = "a2a-context-ids";

/** The stream modes agent calls run with and follow: the state after each step, and each step's update. */
const FOLLOWED_MODES: StreamMode[] = ["values", "updates"];

/** The run an MCP tool call or an A2A message starts, through the domain's run-request rules and defaults. */
function runInput(call: AgentCallInput, threadId: string | null, streamModes: StreamMode[]): RunCreateRequest {
  const configurable = call.headers && Object.keys(call.headers).length > 0 ? { configurable: call.headers } : null;
  return runRequestOf({
    threadId,
    assistantId: call.assistantId,
    input: call.input,
    config: configurable,
    metadata: call.metadata,
    streamModes,
    // A conversation's next message waits for the previous one instead of failing on a busy thread.
    multitaskStrategy: threadId === null ? "reject" : "enqueue",
    ifNotExists: "create",
  });
}

function isExposed(assistant: Assistant, exposed: ExposedAssistants | null): boolean {
  if (exposed === null) return true;
  return exposed.assistantIds.includes(assistant.assistantId) || exposed.graphIds.includes(assistant.graphId);
}

export const agentCallsService = {
  /**
   * The assistants the caller may read (assistants:search decides), limited to `exposed`, each
   * with its graph's input schema; oldest first, so names stay stable as assistants are added.
   */
  async listCallable(ctx: ServiceContext, exposed: ExposedAssistants | null): Promise<CallableAssistant[]> {
    const assistants: Assistant[] = [];
    for (let offset = 0; ; offset += PAGE_SIZE) {
      const page = await assistantsService.search(ctx, { limit: PAGE_SIZE, offset, sortBy: "created_at", sortOrder: "asc" });
      assistants.push(...page.filter((assistant) => isExposed(assistant, exposed)));
      if (page.length < PAGE_SIZE) break;
    }
    const schemas = new Map<string, Record<string, unknown> | null>();
    const callable: CallableAssistant[] = [];
    for (const assistant of assistants) {
      // An assistant whose graph is no longer deployed cannot run: it is not offered.
      if (!ctx.graphs.has(assistant.graphId)) continue;
      if (!schemas.has(assistant.graphId)) {
        const graphSchemas = await ctx.graphs.getSchemas(assistant.graphId, { only: ["input"] });
        schemas.set(assistant.graphId, graphSchemas.input_schema ?? null);
      }
      callable.push({ assistant, inputSchema: schemas.get(assistant.graphId) ?? null });
    }
    return callable;
  },

  /** Whether `exposed` lets this assistant be called (404-like answers when not). */
  isExposed,

  /**
   * A stateless run (temporary thread, deleted after it) read to its end, as POST /runs/wait does;
   * `onEvent` sees each `updates` event (progress). Aborting `signal` cancels the run.
   */
  async callStateless(
    ctx: ServiceContext,
    call: AgentCallInput,
    options: { signal?: AbortSignal; onEvent?: (event: RunStreamEvent) => void } = {},
  ): Promise<AgentCallResult> {
    // The stream is opened before the run is queued: a stateless run's row and events go with its
    // thread as soon as it ends, and a stream opened after that (a quick graph, a loaded
    // process) found nothing, not even how it ended.
    const { run, events } = await runResultsService.createAndStream(ctx, runInput(call, null, FOLLOWED_MODES), { modes: FOLLOWED_MODES, signal: options.signal });
    return readToEnd(ctx, run, { ...options, events });
  },

  /**
   * A run on the thread of a conversation (`contextId`, the caller's own under custom auth),
   * created with the thread when it does not exist yet; a message sent while the previous one
   * still runs is queued behind it.
   */
  async startInConversation(ctx: ServiceContext, call: AgentCallInput & { contextId: string }): Promise<Run> {
    // Context names are per user under custom auth (domain/ids.ts); operators share one space.
    const userIdentity = ctx.actor.kind === "user" ? ctx.actor.user?.identity : undefined;
    const serverKey = await ctx.db.serverSecret(A2A_CONTEXT_SECRET);
    return createRun(ctx, runInput(call, threadIdForContext(serverKey, call.contextId, userIdentity), FOLLOWED_MODES));
  },

  /** Reads a run's stream (stored events, then live ones) to its end. */
  readToEnd,

  followRun,
};

async function readToEnd(
  ctx: ServiceContext,
  run: Run,
  options: { signal?: AbortSignal; onEvent?: (event: RunStreamEvent) => void; events?: RunStreamEvents } = {},
): Promise<AgentCallResult> {
  const events = followRun(ctx, run, options.signal, options.events);
  for (;;) {
    const next = await events.next();
    if (next.done) return next.value;
    options.onEvent?.(next.value);
  }
}

/**
 * A run's `values` and `updates` events as they come (stored ones first), returning how it ended.
 * Aborting `signal` cancels the run: its caller is gone. `opened`: the run's stream, when it was
 * opened before the run was queued (runResultsService.createAndStream).
 */
async function* followRun(
  ctx: ServiceContext,
  run: Run,
  signal?: AbortSignal,
  opened?: RunStreamEvents,
): AsyncGenerator<RunStreamEvent, AgentCallResult, undefined> {
  const cancel = () =>
    void cancelRuns(ctx, { runIds: [run.runId], action: "interrupt" }).catch((error: unknown) => {
      ctx.log.error({ err: coerceError(error), runId: run.runId }, "could not cancel a run whose caller went away; it runs on");
    });
  signal?.addEventListener("abort", cancel, { once: true });
  let values: RunResult = {};
  let error: AgentCallResult["error"] = null;
  let heardStatus: RunStatus | null;
  const events = opened ?? runResultsService.stream(ctx, { runId: run.runId, threadId: run.threadId, modes: FOLLOWED_MODES, signal });
  try {
    for (;;) {
      const next = await events.next();
      if (next.done) {
        heardStatus = next.value;
        break;
      }
      const event = next.value;
      if (event.event === "values") values = JSON.parse(event.data) as RunResult;
      else if (event.event === "error") error = JSON.parse(event.data) as AgentCallResult["error"];
      yield event;
    }
  } finally {
    signal?.removeEventListener("abort", cancel);
    await events.return(null);
  }
  const [settled] = await runsService.getMany(ctx, [run.runId]);
  if (settled) return { run: settled, values, error };
  // A stateless run's row (with its thread) is deleted as soon as it ends, often before this read:
  // its end is what the stream heard. Not heard (deleted while it ran, or ended by another process
  // without Redis): an error event means it failed; otherwise its status stays unfinished.
  const endedAs = heardStatus ?? (error ? "error" : null);
  return { run: endedAs ? { ...run, status: endedAs } : run, values, error };
}

/**
 * The text of the last AI message in a graph's output `messages` (wire form `{type: "ai", ...}`,
 * or plain `{role: "assistant", ...}` objects), or null when there is none.
 */
export function lastAiMessageText(values: RunResult): string | null {
  const messages = (values as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return null;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as { type?: unknown; role?: unknown; content?: unknown } | null;
    if (typeof message !== "object" || message === null) continue;
    const kind = message.type ?? message.role;
    if (kind === "ai" || kind === "assistant" || kind === "AIMessageChunk") return contentText(message.content);
  }
  return null;
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? "" : JSON.stringify(content);
  return content
    .map((block) => (typeof block === "string" ? block : (block as { type?: string; text?: unknown }).type === "text" ? String((block as { text?: unknown }).text ?? "") : ""))
    .join("");
}
