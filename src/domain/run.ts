import type { Assistant } from "./assistant.js";
import { newId } from "./ids.js";
import { type JsonObject, jsonObjectOrEmpty } from "./json.js";
import type { RunCommand } from "./run-command.js";

export const RUN_STATUSES = ["pending", "running", "success", "error", "timeout", "interrupted"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A run in one of these will not change again (except by deletion). */
export const FINISHED_RUN_STATUSES: readonly RunStatus[] = ["success", "error", "timeout", "interrupted"];
export const isRunFinished = (status: RunStatus): boolean => FINISHED_RUN_STATUSES.includes(status);

export const MULTITASK_STRATEGIES = ["reject", "interrupt", "rollback", "enqueue"] as const;
export type MultitaskStrategy = (typeof MULTITASK_STRATEGIES)[number];

export const CANCEL_ACTIONS = ["interrupt", "rollback"] as const;
export type CancelAction = (typeof CANCEL_ACTIONS)[number];

/**
 * Stream modes a client may ask for (SPEC §4): every mode of the installed LangGraph (1.7:
 * values, updates, messages, custom, debug, tasks, checkpoints, tools) plus the server's own
 * `events` and `messages-tuple` (LangGraph's "messages"). The SDK also declares `lifecycle`,
 * which LangGraph 1.7 and LangGraph's JS server do not have; it is refused with 422.
 */
export const STREAM_MODES = [
  "values",
  "updates",
  "messages",
  "messages-tuple",
  "custom",
  "events",
  "debug",
  "tasks",
  "checkpoints",
  "tools",
] as const;
export type StreamMode = (typeof STREAM_MODES)[number];

export type OnCompletion = "delete" | "keep";
export type Durability = "sync" | "async" | "exit";

/**
 * Everything the worker needs to execute a run, stored with it (LangGraph Platform calls this
 * `kwargs`). The assistant's context is resolved at creation, so a later assistant update never
 * changes a queued run.
 */
export interface RunKwargs {
  input: unknown;
  command: RunCommand | null;
  /** The assistant version's context overlaid key by key with the run's context. */
  context: JsonObject;
  config: JsonObject;
  graphId: string;
  assistantVersion: number;
  streamModes: StreamMode[];
  streamSubgraphs: boolean;
  streamResumable: boolean;
  interruptBefore: string[] | "*" | null;
  interruptAfter: string[] | "*" | null;
  checkpointId: string | null;
  checkpointNs: string | null;
  webhook: string | null;
  /** Stateless runs only: what happens to their temporary thread afterwards. */
  onCompletion: OnCompletion | null;
  durability: Durability | null;
}

export interface Run {
  runId: string;
  threadId: string;
  assistantId: string;
  status: RunStatus;
  metadata: JsonObject;
  multitaskStrategy: MultitaskStrategy;
  kwargs: RunKwargs;
  createdAt: Date;
  updatedAt: Date;
  /** Not before this instant (after_seconds). */
  runAfter: Date;
  /** 1 for the first execution, +1 each time a crashed worker's run is taken over. */
  attempt: number;
  /** A cancellation asked for while the run was running; the worker that holds it acts on it. */
  cancelAction: CancelAction | null;
  error: JsonObject | null;
  /** The encryption context metadata and kwargs are sealed with in storage; null: stored in clear. */
  encryptionContext: JsonObject | null;
}

/** A run as join answers it: its status and error, and the values it left on its thread. */
export interface RunStatusAndValues {
  threadId: string;
  status: RunStatus;
  error: JsonObject | null;
  /** The thread's values after the run: any JSON value (a functional-API graph may leave a non-object), or null. */
  threadValues: unknown;
}

/** How long a worker's claim on a run lasts without renewal (renewed at a third of this). */
export const RUN_LEASE_MS = 30_000;

/**
 * kwargs under LangGraph Platform's names: what a run "was created with", shown the same way by
 * REST (Run.kwargs) and GraphQL (Run.kwargs) so clients of both see one shape.
 */
export function describeRunKwargs(kwargs: RunKwargs): JsonObject {
  return {
    input: kwargs.input,
    command: kwargs.command,
    context: kwargs.context,
    config: kwargs.config,
    stream_mode: kwargs.streamModes,
    subgraphs: kwargs.streamSubgraphs,
    resumable: kwargs.streamResumable,
    interrupt_before: kwargs.interruptBefore,
    interrupt_after: kwargs.interruptAfter,
    checkpoint_id: kwargs.checkpointId,
    webhook: kwargs.webhook,
    on_completion: kwargs.onCompletion,
    durability: kwargs.durability,
  };
}

/**
 * A run's config over its assistant version's: top-level keys overlaid, and `configurable` and
 * `metadata` overlaid key by key (the run's values win). Shared by runs and cron firings.
 */
export function mergeRunConfig(assistantConfig: JsonObject, runConfig: JsonObject): JsonObject {
  return {
    ...assistantConfig,
    ...runConfig,
    configurable: { ...jsonObjectOrEmpty(assistantConfig.configurable), ...jsonObjectOrEmpty(runConfig.configurable) },
    metadata: { ...jsonObjectOrEmpty(assistantConfig.metadata), ...jsonObjectOrEmpty(runConfig.metadata) },
  };
}

/** What a run request asks for, before its assistant version is applied. */
export interface RunRequest
  extends Omit<RunKwargs, "graphId" | "assistantVersion" | "context" | "config" | "command" | "checkpointId" | "checkpointNs" | "onCompletion"> {
  command?: RunCommand | null;
  checkpointId?: string | null;
  checkpointNs?: string | null;
  context: JsonObject;
  config: JsonObject;
  multitaskStrategy: MultitaskStrategy;
}

/**
 * A new pending run: the request over its assistant's active version (context overlaid key by
 * key, config by mergeRunConfig). Shared by run creation and cron firings, so a cron's run is
 * exactly the run the same request would create.
 */
export function composeRun(options: {
  /** Chosen by the caller when it must know the id before the run is queued; new otherwise. */
  runId?: string;
  assistant: Pick<Assistant, "assistantId" | "graphId" | "version" | "context" | "config">;
  request: RunRequest;
  threadId: string;
  metadata: JsonObject;
  /** Stateless runs only (null on a user's thread). */
  onCompletion: OnCompletion | null;
  now: Date;
  runAfter: Date;
}): Run {
  const { assistant, request, now } = options;
  return {
    runId: options.runId ?? newId(),
    threadId: options.threadId,
    assistantId: assistant.assistantId,
    status: "pending",
    metadata: options.metadata,
    multitaskStrategy: request.multitaskStrategy,
    kwargs: {
      input: request.input ?? null,
      command: request.command ?? null,
      context: { ...assistant.context, ...request.context },
      config: mergeRunConfig(assistant.config, request.config),
      graphId: assistant.graphId,
      assistantVersion: assistant.version,
      streamModes: request.streamModes,
      streamSubgraphs: request.streamSubgraphs,
      streamResumable: request.streamResumable,
      interruptBefore: request.interruptBefore,
      interruptAfter: request.interruptAfter,
      checkpointId: request.checkpointId ?? null,
      checkpointNs: request.checkpointNs ?? null,
      webhook: request.webhook,
      onCompletion: options.onCompletion,
      durability: request.durability,
    },
    createdAt: now,
    updatedAt: now,
    runAfter: options.runAfter,
    attempt: 0,
    cancelAction: null,
    error: null,
    encryptionContext: null,
  };
}
