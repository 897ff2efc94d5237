import type { RunCommandDraft } from "../../../domain/run-command.js";
import { MAX_AFTER_SECONDS, RUN_REQUEST_DEFAULTS, runRequestOf, type RunCreateRequest } from "../../../domain/run-request.js";
import { runResultsService } from "../../../services/run-results.service.js";
import { runsService } from "../../../services/runs.service.js";
import { cancelRuns } from "../../../services/run-lifecycle/cancel-run.js";
import { createRun } from "../../../services/run-lifecycle/create-run.js";
import { builder } from "../../builder.js";
import { CancelAction, MultitaskStrategy, RunRef, StreamMode } from "./run.js";

const IfNotExists = builder.enumType("IfNotExists", {
  description: "What a run on a thread id that does not exist does.",
  values: {
    REJECT: { value: "reject" as const, description: "Fail with NOT_FOUND." },
    CREATE: { value: "create" as const, description: "Create the thread." },
  },
});

const OnCompletion = builder.enumType("OnCompletion", {
  description: "What happens to a stateless run's temporary thread when the run ends.",
  values: { DELETE: { value: "delete" as const }, KEEP: { value: "keep" as const } },
});

const RunCommandInput = builder.inputType("RunCommandInput", {
  description: "Continues a thread: resume an interrupt(), update the state, and/or go to nodes.",
  fields: (t) => ({
    resume: t.field({ type: "JSON", description: "The value interrupt() returns in the resumed node." }),
    update: t.field({ type: "JSON", description: "Channel values, or [channel, value] pairs, applied before continuing." }),
    goto: t.field({ type: "JSON", description: "A node name, a Send ({node, input}) or a list of them." }),
  }),
});

/** Only the parts the client gave (the domain's rules then check them, as REST's). */
function commandOf(command: RunCommandDraft | null | undefined): RunCommandDraft | null {
  if (command == null) return null;
  return Object.fromEntries(Object.entries(command).filter(([, value]) => value !== undefined));
}

/** `["*"]` asks for every node, as REST's `"*"` does. */
export function nodeListOf(nodes: readonly string[] | null | undefined): string[] | "*" | null {
  if (nodes == null) return null;
  return nodes.includes("*") ? "*" : [...nodes];
}

builder.relayMutationField(
  "createRun",
  {
    inputFields: (t) => ({
      threadId: t.id({ description: "The thread to run on; omitted or null: a stateless run on a temporary thread." }),
      assistantId: t.id({ required: true, description: "An assistant UUID, or a deployed graph's name." }),
      input: t.field({ type: "JSON", description: "The graph's input; ignored when a command is given (the command wins)." }),
      command: t.field({ type: RunCommandInput }),
      context: t.field({ type: "JSONObject", description: "Overlaid key by key on the assistant's context." }),
      config: t.field({ type: "JSONObject" }),
      metadata: t.field({ type: "JSONObject" }),
      streamMode: t.field({ type: [StreamMode], description: "What the run's stream carries; default [VALUES]." }),
      streamSubgraphs: t.boolean({ defaultValue: RUN_REQUEST_DEFAULTS.streamSubgraphs, description: "Also stream subgraphs' events (with a namespace)." }),
      streamResumable: t.boolean({ defaultValue: RUN_REQUEST_DEFAULTS.streamResumable }),
      multitaskStrategy: t.field({ type: MultitaskStrategy, defaultValue: RUN_REQUEST_DEFAULTS.multitaskStrategy }),
      ifNotExists: t.field({ type: IfNotExists, defaultValue: RUN_REQUEST_DEFAULTS.ifNotExists }),
      onCompletion: t.field({ type: OnCompletion, description: "Stateless runs only; default DELETE." }),
      afterSeconds: t.int({ defaultValue: RUN_REQUEST_DEFAULTS.afterSeconds, description: `Start no earlier than this many seconds from now (at most ${MAX_AFTER_SECONDS}).` }),
      webhook: t.string({ description: "An http(s) URL, or a path on this server (`/…`, delivered to its custom routes), that receives the finished run." }),
      interruptBefore: t.stringList({ description: 'Stop before these nodes; ["*"]: before every node.' }),
      interruptAfter: t.stringList({ description: 'Stop after these nodes; ["*"]: after every node.' }),
      checkpointId: t.string({ description: "Run from this checkpoint of the thread instead of the latest." }),
    }),
  },
  {
    description:
      "Queues a run (the worker executes it in the background; follow it with runEvents). A busy thread " +
      "under multitaskStrategy REJECT fails with THREAD_BUSY; NOT_FOUND for an unknown assistant or thread.",
    resolve: async (_root, { input }, ctx) => ({ run: await createRun(ctx.services, createRunInputOf(input)) }),
  },
  { outputFields: (t) => ({ run: t.expose("run", { type: RunRef }) }) },
);

/**
 * The domain's run request from the GraphQL input: the rules and defaults are runRequestOf's, the
 * same REST's requests go through. An empty streamMode list is "not given" (GraphQL clients send
 * [] for an unset list), so it streams the default.
 */
export function createRunInputOf(input: {
  threadId?: string | null;
  assistantId: string;
  input?: unknown;
  command?: RunCommandDraft | null;
  context?: RunCreateRequest["context"] | null;
  config?: RunCreateRequest["config"] | null;
  metadata?: RunCreateRequest["metadata"] | null;
  streamMode?: RunCreateRequest["streamModes"] | null;
  streamSubgraphs?: boolean | null;
  streamResumable?: boolean | null;
  multitaskStrategy?: RunCreateRequest["multitaskStrategy"] | null;
  ifNotExists?: RunCreateRequest["ifNotExists"] | null;
  onCompletion?: RunCreateRequest["onCompletion"] | null;
  afterSeconds?: number | null;
  webhook?: string | null;
  interruptBefore?: readonly string[] | null;
  interruptAfter?: readonly string[] | null;
  checkpointId?: string | null;
}): RunCreateRequest {
  return runRequestOf({
    threadId: input.threadId ?? null,
    assistantId: input.assistantId,
    input: input.input,
    command: commandOf(input.command),
    context: input.context,
    config: input.config,
    metadata: input.metadata,
    streamModes: input.streamMode && input.streamMode.length > 0 ? input.streamMode : undefined,
    streamSubgraphs: input.streamSubgraphs,
    streamResumable: input.streamResumable,
    interruptBefore: nodeListOf(input.interruptBefore),
    interruptAfter: nodeListOf(input.interruptAfter),
    checkpointId: input.checkpointId,
    webhook: input.webhook,
    onCompletion: input.onCompletion,
    multitaskStrategy: input.multitaskStrategy,
    ifNotExists: input.ifNotExists,
    afterSeconds: input.afterSeconds,
  });
}

builder.relayMutationField(
  "cancelRun",
  {
    inputFields: (t) => ({
      runId: t.id({ required: true }),
      action: t.field({ type: CancelAction, defaultValue: "interrupt" }),
      wait: t.boolean({ defaultValue: false, description: "Answer only once the run has stopped." }),
    }),
  },
  {
    description:
      "Cancels a pending or running run (a finished one is left as it is). A pending run stops at once; a " +
      "running one when its worker notices, which `wait` waits for.",
    resolve: async (_root, { input }, ctx) => {
      const { runId } = await runsService.get(ctx.services, null, input.runId);
      await cancelRuns(ctx.services, { runIds: [runId], action: input.action ?? "interrupt" });
      if (input.wait) return { run: await runResultsService.waitForEnd(ctx.services, runId) };
      const [run] = await runsService.getMany(ctx.services, [runId]);
      return { run: run ?? null };
    },
  },
  {
    outputFields: (t) => ({
      run: t.expose("run", { type: RunRef, nullable: true, description: "The run now; null when rollback deleted it." }),
    }),
  },
);
