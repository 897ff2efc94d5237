import type { EntityManager } from "typeorm";
import type { EnqueueOutcome, RunToEnqueue } from "../../db/sql/enqueue-rows.js";
import { enqueueRuns } from "../../db/sql/enqueue-runs.js";
import { threadVisibility } from "../../db/sql/thread-exists.js";
import { withTransaction } from "../../db/tx.js";
import type { Assistant } from "../../domain/assistant.js";
import { InvalidInputError, NotFoundError, ThreadBusyError } from "../../domain/errors.js";
import { newId } from "../../domain/ids.js";
import type { JsonObject } from "../../domain/json.js";
import { composeRun, type Run } from "../../domain/run.js";
import { commandTargetsProblem, gotoTargetsOf } from "../../domain/run-command.js";
import type { RunCreateRequest } from "../../domain/run-request.js";
import { isRestricted, scopeOf, stampedMetadata, type MetadataScope } from "../access-scope.js";
import { assistantSnapshots } from "../assistant-snapshots.js";
import { sealRun } from "../field-encryption.js";
import { findAssistantForRun, resolveAssistantId } from "../assistants.service.js";
import { withAuthUser } from "../run-auth-user.js";
import { requireThreadIdForRun } from "../runs.service.js";
import type { ServiceContext } from "../service-context.js";
import { announceCancellations, cancelEffectsOnThread, type CancelEffects } from "./cancel-run.js";
import { requireAllowedWebhook } from "./webhooks.js";

/**
 * Step 1 of the run lifecycle (docs/run-lifecycle.md): a request becomes a `pending` run. The
 * request was completed by the domain's rules (runRequestOf) in its transport.
 */

/**
 * Queues a run. The multitask rule is the enqueue statement's (db/sql/enqueue-runs.ts), applied
 * under the thread's row lock in the same statement that queues the run: `reject` refuses when
 * the thread has a pending or running run (nothing written); `interrupt` / `rollback` cancel those
 * runs (the worker stops running ones; rollback also erases what they wrote); `enqueue` just
 * queues. The worker never runs two runs of one thread at once, so the new run starts after the
 * old ends.
 */
export async function createRun(ctx: ServiceContext, request: RunCreateRequest, hooks: CreateRunHooks = {}): Promise<Run> {
  const authorized = await authorizeRunCreation(ctx, request, ctx.now());
  const queued = await queueAuthorizedRun(ctx, authorized, hooks);
  announceRunQueued(ctx, queued);
  return queued.run;
}

/** After the commit that queued a run: what it cancelled ends, and the workers hear of it. */
export function announceRunQueued(ctx: ServiceContext, { run, cancelled }: QueuedRun): void {
  announceCancellations(ctx, cancelled);
  ctx.streaming.signals.runCreated(run.runId, run.threadId);
  ctx.streaming.signals.runPending(run.runAfter);
  ctx.metrics?.runCreated(run.kwargs.graphId);
}

/** A run the enqueue statement queued, and the runs its multitask decision cancelled. */
export interface QueuedRun {
  run: Run;
  cancelled: CancelEffects;
}

/**
 * Queues an authorized run through the batched enqueue statement (ctx.db.runQueue: it commits on
 * its own, with the runs other requests queue meanwhile) and throws what a refusal means.
 *
 * The common case is one round trip: the assistant comes from the last run composed with it, and
 * the enqueue checks it is still current; if it changed, the run is composed again from a fresh
 * read.
 */
async function queueAuthorizedRun(ctx: ServiceContext, authorized: AuthorizedRunRequest, hooks: CreateRunHooks = {}): Promise<QueuedRun> {
  const attempt = async (assistant: Assistant, checked: boolean) => {
    const entry = await runToEnqueue(ctx, authorized, assistant, checked);
    await checkCommandTargets(ctx, entry.run);
    hooks.beforeQueued?.(entry.run);
    return { run: entry.run, queued: await ctx.db.runQueue.call(entry) };
  };
  const snapshot = assistantSnapshots.get(ctx.db, resolveAssistantId(ctx, authorized.input.assistantId));
  let result = snapshot ? await attempt(snapshot, true) : null;
  if (!result || result.queued.outcome === "assistant-changed") {
    const assistant = await findAssistantForRun(ctx, authorized.input.assistantId);
    assistantSnapshots.remember(ctx.db, assistant);
    result = await attempt(assistant, false);
  }
  return queuedOrRefused(result.run, result.queued);
}

/**
 * Queues an authorized run composed from `assistant` (read by the caller before its transaction)
 * inside the caller's transaction: a refusal throws, and the caller's writes roll back with it.
 * Announce the run (announceRunQueued) after the commit.
 */
export async function queueRunInTransaction(
  ctx: ServiceContext,
  manager: EntityManager,
  authorized: AuthorizedRunRequest,
  assistant: Assistant,
): Promise<QueuedRun> {
  const entry = await runToEnqueue(ctx, authorized, assistant, false);
  await checkCommandTargets(ctx, entry.run);
  const [queued] = await enqueueRuns(manager, [entry]);
  return queuedOrRefused(entry.run, queued!);
}

/** What the enqueue statement's answer means for a run: queued, or the refusal as an error. */
function queuedOrRefused(run: Run, queued: EnqueueOutcome): QueuedRun {
  if (queued.outcome === "thread-missing") throw new NotFoundError(`Thread '${run.threadId}' not found`);
  if (queued.outcome === "busy") throw new ThreadBusyError(run.threadId);
  if (queued.outcome !== "created") throw new Error(`run ${run.runId} was not queued: ${queued.outcome}`);
  return { run, cancelled: cancelEffectsOnThread(run.threadId, queued.cancelled) };
}

export interface CreateRunHooks {
  /**
   * Called with the composed run just before it is sent to be queued (again with the same run id
   * if the assistant changed meanwhile and it is composed anew): nothing of it exists yet, so a
   * listener registered here hears all of it. Queuing may still fail afterwards.
   */
  beforeQueued?(run: Run): void;
}

/**
 * Queues a batch of stateless runs, all or nothing: every item is authorized and its assistant
 * found before anything is written, then all are queued in one statement inside one
 * transaction. Each run has a new thread of its own, so no item can find its thread busy.
 */
export async function createRunBatch(ctx: ServiceContext, requests: readonly RunCreateRequest[]): Promise<Run[]> {
  const now = ctx.now();
  const authorized: AuthorizedRunRequest[] = [];
  for (const request of requests) {
    if (request.threadId !== null) throw new Error("createRunBatch queues stateless runs only");
    authorized.push(await authorizeRunCreation(ctx, request, now));
  }
  const entries: RunToEnqueue[] = [];
  for (const item of authorized) {
    const entry = await runToEnqueue(ctx, item, await findAssistantForRun(ctx, item.input.assistantId), false);
    await checkCommandTargets(ctx, entry.run);
    entries.push(entry);
  }
  await withTransaction(ctx.db, async (manager) => {
    const outcomes = await enqueueRuns(manager, entries);
    const refused = outcomes.findIndex((queued) => queued.outcome !== "created");
    // A new thread can be neither missing nor busy: a refusal here is a broken invariant.
    if (refused >= 0) throw new Error(`run ${refused} of the batch was not queued: ${outcomes[refused]!.outcome}`);
  });
  for (const { run } of entries) ctx.streaming.signals.runCreated(run.runId, run.threadId);
  for (const { run } of entries) ctx.streaming.signals.runPending(run.runAfter);
  for (const { run } of entries) ctx.metrics?.runCreated(run.kwargs.graphId);
  return entries.map((entry) => entry.run);
}

/**
 * LangGraph skips a goto to a node the graph does not have without a word, and the run would
 * report success having done nothing: such a command is refused before anything is queued,
 * against the nodes of the graph the run would execute (a factory's, built with the run's config).
 */
async function checkCommandTargets(ctx: ServiceContext, run: Run): Promise<void> {
  const { command, graphId, config } = run.kwargs;
  if (command === null || gotoTargetsOf(command).length === 0 || !ctx.graphs.has(graphId)) return;
  let nodes: string[] | null;
  try {
    nodes = await ctx.graphs.nodeNames(graphId, { config });
  } catch (error) {
    // A factory that fails to build the graph fails the run the same way when the worker builds
    // it, where the run reports it: creation is not the place to answer 500 for it.
    ctx.log.warn({ err: error, graphId }, "could not list the graph's nodes to check a command's goto");
    return;
  }
  const problem = nodes === null ? null : commandTargetsProblem(command, nodes);
  if (problem) throw new InvalidInputError(problem);
}

/** A run request once authorized: its id, the thread it runs on and the metadata and config it gets. */
export interface AuthorizedRunRequest {
  input: RunCreateRequest;
  runId: string;
  threadId: string;
  scope: MetadataScope;
  now: Date;
}

/**
 * The run a request composes from an assistant, and the thread to create for it if asked. Its
 * metadata and kwargs are sealed with the caller's encryption context, which a thread created for
 * it gets too (as POST /threads would give it); the keys stamped on that thread stay in clear.
 */
async function runToEnqueue(
  ctx: ServiceContext,
  { input, runId, threadId, scope, now }: AuthorizedRunRequest,
  assistant: Assistant,
  checked: boolean,
): Promise<RunToEnqueue> {
  const run = composeRun({
    runId,
    assistant,
    request: input,
    threadId,
    metadata: input.metadata,
    onCompletion: input.threadId === null ? (input.onCompletion ?? "delete") : null,
    now,
    runAfter: new Date(now.getTime() + input.afterSeconds * 1000),
  });
  // A thread the run creates is stamped with the scope's owner fields, so its creator sees it.
  const threadMetadata = { ...ownerFields(scope), graph_id: assistant.graphId, assistant_id: assistant.assistantId };
  const stored = await sealRun(ctx, run);
  return {
    run: { ...run, encryptionContext: stored.encryptionContext },
    stored,
    cronId: null,
    thread: { metadata: threadMetadata, createIfMissing: input.threadId === null || input.ifNotExists === "create", skipLockedThread: false },
    assistantSeen: checked ? { version: assistant.version, updatedAt: assistant.updatedAt } : null,
  };
}

/**
 * `threads:create_run`, as LangGraph's server authorizes a run: the handler sees the request
 * (and may stamp `metadata`); a run on an existing thread outside the returned scope is a 404.
 * The assistant is not authorized separately. The webhook must be one the deployment allows.
 * Writes nothing.
 */
export async function authorizeRunCreation(ctx: ServiceContext, input: RunCreateRequest, now: Date): Promise<AuthorizedRunRequest> {
  requireAllowedWebhook(ctx, input.webhook);
  const threadId = input.threadId === null ? newId() : requireThreadIdForRun(input.threadId);
  const request = {
    thread_id: input.threadId === null ? undefined : threadId,
    assistant_id: input.assistantId,
    status: "pending",
    metadata: { ...input.metadata },
    multitask_strategy: input.multitaskStrategy,
    if_not_exists: input.ifNotExists,
    after_seconds: input.afterSeconds,
    kwargs: { input: input.input, command: input.command, config: input.config, context: input.context },
  };
  const scope = await scopeOf(ctx, "threads", "create_run", request);
  if (input.threadId !== null && isRestricted(scope)) {
    if ((await threadVisibility(ctx.db.dataSource.manager, threadId, scope)) === "hidden") {
      throw new NotFoundError(`Thread '${threadId}' not found`);
    }
  }
  const metadata = stampedMetadata(request) ?? {};
  return { input: { ...input, metadata, config: withAuthUser(input.config, ctx.actor.user) }, runId: newId(), threadId, scope, now };
}

/** The scope's equality conditions (`{owner: "alice"}`), which a new resource can be given. */
function ownerFields(scope: MetadataScope): JsonObject {
  return Object.fromEntries(Object.entries(scope).filter(([, value]) => typeof value === "string"));
}
