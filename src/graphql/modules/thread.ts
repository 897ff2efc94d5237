import { THREAD_SORT_FIELDS, THREAD_STATUSES, threadExpiresAt, type Thread } from "../../domain/thread.js";
import type { ThreadState, ThreadTask } from "../../domain/thread-state.js";
import { threadStateService } from "../../services/thread-state.service.js";
import { threadsService } from "../../services/threads.service.js";
import { builder } from "../builder.js";
import { omitNull } from "../input-values.js";
import { ASSISTANT_THREADS_LIMIT } from "../loaders.js";
import { resolveListPage, resolveServicePage } from "../pagination.js";
import { AssistantRef } from "./assistant.js";
import { enumValuesOf, IfExists, SortOrder } from "./enums.js";

export const ThreadRef = builder.objectRef<Thread>("Thread");

const ThreadStatus = builder.enumType("ThreadStatus", { values: enumValuesOf(THREAD_STATUSES) });
const ThreadSortBy = builder.enumType("ThreadSortBy", { values: enumValuesOf(THREAD_SORT_FIELDS) });

const ThreadStateTaskRef = builder.objectRef<ThreadTask>("ThreadStateTask").implement({
  description: "A task of the step after a checkpoint; once attempted it may carry an error or interrupts.",
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name", { description: "The node this task runs." }),
    error: t.exposeString("error", { nullable: true }),
    interrupts: t.field({
      type: "JSON",
      description: "Its pending interrupts: [{id, value}].",
      resolve: (task) => task.interrupts,
    }),
    result: t.field({ type: "JSON", nullable: true, resolve: (task) => task.result ?? null }),
    checkpointNs: t.string({
      nullable: true,
      description: "The task's checkpoint namespace when it is a subgraph.",
      resolve: (task) => task.checkpoint?.checkpointNs ?? null,
    }),
  }),
});

const ThreadStateRef = builder.objectRef<ThreadState>("ThreadState").implement({
  description: "One checkpoint of a thread's state, as REST's ThreadState. Messages are plain dicts ({type, content}).",
  fields: (t) => ({
    values: t.field({ type: "JSON", resolve: (state) => state.values }),
    next: t.exposeStringList("next", { description: "Nodes left to run; empty when the graph reached its end." }),
    tasks: t.field({ type: [ThreadStateTaskRef], resolve: (state) => state.tasks }),
    checkpointId: t.string({
      nullable: true,
      description: "null when the thread has no checkpoint yet.",
      resolve: (state) => state.checkpoint?.checkpointId ?? null,
    }),
    parentCheckpointId: t.string({ nullable: true, resolve: (state) => state.parentCheckpoint?.checkpointId ?? null }),
    metadata: t.expose("metadata", { type: "JSONObject", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime", nullable: true }),
    interrupts: t.field({
      type: "JSON",
      description: "Every task's pending interrupts.",
      resolve: (state) => state.interrupts,
    }),
  }),
});

builder.node(ThreadRef, {
  description: "A conversation: metadata plus the state its runs accumulate.",
  id: { resolve: (thread) => thread.threadId },
  loadWithoutCache: (id, ctx) => ctx.loaders.thread.load(id),
  fields: (t) => ({
    threadId: t.exposeID("threadId", { description: "The raw UUID (REST's thread_id)." }),
    status: t.expose("status", { type: ThreadStatus }),
    metadata: t.expose("metadata", { type: "JSONObject" }),
    config: t.expose("config", { type: "JSONObject" }),
    // JSON, not JSONObject: a functional-API graph's state may be a string, a number or a list.
    values: t.expose("values", {
      type: "JSON",
      nullable: true,
      description: "The latest state's values as the graph left them (an object for a StateGraph; any JSON value for a functional-API graph); null until a run wrote state.",
    }),
    interrupts: t.expose("interrupts", { type: "JSONObject" }),
    error: t.expose("error", { type: "JSON", nullable: true, description: "The last run's error, when in error." }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    stateUpdatedAt: t.expose("stateUpdatedAt", { type: "DateTime" }),
    expiresAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When the thread's TTL runs out (its TTL after its last update); null: it has none.",
      resolve: threadExpiresAt,
    }),
    // Each thread's state is read from its graph's checkpointer: one read per thread, not batched.
    state: t.field({
      type: ThreadStateRef,
      nullable: true,
      description: "The latest state (empty values when the thread has no graph or no checkpoint yet).",
      args: { subgraphs: t.arg.boolean({ description: "Include subgraph states in tasks." }) },
      resolve: (thread, args, ctx) =>
        threadStateService.getState(ctx.services, thread.threadId, { subgraphs: omitNull(args.subgraphs) }),
    }),
    history: t.field({
      type: [ThreadStateRef],
      description: "Past states, newest first.",
      args: {
        limit: t.arg.int({ defaultValue: 10, description: "1 to 1000." }),
        before: t.arg.string({ description: "Only checkpoints older than this checkpoint id." }),
        checkpointNs: t.arg.string({
          description: "A subgraph's history: the namespace a task names (ThreadStateTask.checkpointNs); the root graph's when omitted.",
        }),
      },
      resolve: (thread, args, ctx) =>
        threadStateService.getHistory(ctx.services, thread.threadId, {
          limit: omitNull(args.limit),
          before: omitNull(args.before),
          checkpoint: args.checkpointNs ? { checkpointNs: args.checkpointNs } : undefined,
        }),
    }),
    assistant: t.field({
      type: AssistantRef,
      nullable: true,
      description: "The assistant named by metadata.assistant_id (batched); null when none or deleted.",
      resolve: (thread, _args, ctx) => {
        const assistantId: unknown = thread.metadata.assistant_id;
        return typeof assistantId === "string" ? ctx.loaders.assistant.load(assistantId) : null;
      },
    }),
  }),
});

// Declared here rather than in assistant.ts: Thread refers to Assistant, so this keeps one direction.
builder.objectField(AssistantRef, "threads", (t) =>
  t.connection(
    {
      type: ThreadRef,
      description: `Threads whose metadata.assistant_id names this assistant, newest first (the newest ${ASSISTANT_THREADS_LIMIT}; batched across assistants).`,
      resolve: async (assistant, args, ctx) =>
        resolveListPage(args, await ctx.loaders.assistantThreads.load(assistant.assistantId)),
    },
    { name: "AssistantThreadConnection" },
    { name: "AssistantThreadEdge" },
  ),
);

builder.queryFields((t) => ({
  thread: t.field({
    type: ThreadRef,
    description: "One thread; NOT_FOUND when it does not exist.",
    args: { threadId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => threadsService.get(ctx.services, args.threadId),
  }),
  threads: t.connection(
    {
      type: ThreadRef,
      description: "Threads matching every given filter, in a stable order (ties broken by id).",
      args: {
        metadata: t.arg({ type: "JSONObject", description: "Metadata containing these keys and values." }),
        metadataAnyOf: t.arg({
          type: ["JSONObject"],
          description:
            "Metadata containing at least one of these objects (1 to 64), e.g. a value typed as text in each form it may " +
            "be stored in: [{ticket: \"4711\"}, {ticket: 4711}]. Combines with `metadata` (both must hold).",
        }),
        values: t.arg({ type: "JSONObject", description: "State values containing these keys and values." }),
        status: t.arg({ type: ThreadStatus }),
        ids: t.arg.idList({ description: "Only these thread ids." }),
        sortBy: t.arg({ type: ThreadSortBy, defaultValue: "created_at" }),
        sortOrder: t.arg({ type: SortOrder, defaultValue: "desc" }),
      },
      resolve: (_root, args, ctx) => {
        const filter = {
          metadata: omitNull(args.metadata),
          metadataAnyOf: omitNull(args.metadataAnyOf),
          values: omitNull(args.values),
          status: omitNull(args.status),
          ids: args.ids?.map((id) => id.toLowerCase()),
        };
        const order = { sortBy: args.sortBy ?? undefined, sortOrder: args.sortOrder ?? undefined };
        return resolveServicePage(
          args,
          (page) => threadsService.search(ctx.services, { ...filter, ...order, ...page }),
          () => threadsService.count(ctx.services, filter),
        );
      },
    },
    { name: "ThreadConnection" },
    { name: "ThreadEdge" },
  ),
}));

builder.relayMutationField(
  "createThread",
  {
    inputFields: (t) => ({
      threadId: t.id({ description: "A UUID to use; generated when omitted." }),
      metadata: t.field({ type: "JSONObject" }),
      ifExists: t.field({ type: IfExists }),
    }),
  },
  {
    resolve: async (_root, { input }, ctx) => ({
      thread: await threadsService.create(ctx.services, {
        threadId: omitNull(input.threadId),
        metadata: omitNull(input.metadata),
        ifExists: omitNull(input.ifExists),
      }),
    }),
  },
  { outputFields: (t) => ({ thread: t.expose("thread", { type: ThreadRef }) }) },
);

builder.relayMutationField(
  "updateThread",
  {
    inputFields: (t) => ({
      threadId: t.id({ required: true }),
      metadata: t.field({ type: "JSONObject" }),
    }),
  },
  {
    description: "Merges the given metadata into the thread's: given keys win, others stay.",
    resolve: async (_root, { input }, ctx) => ({
      thread: await threadsService.update(ctx.services, input.threadId, { metadata: omitNull(input.metadata) }),
    }),
  },
  { outputFields: (t) => ({ thread: t.expose("thread", { type: ThreadRef }) }) },
);

builder.relayMutationField(
  "deleteThread",
  {
    inputFields: (t) => ({ threadId: t.id({ required: true }) }),
  },
  {
    description: "Deletes the thread with its runs, checkpoints and crons.",
    resolve: async (_root, { input }, ctx) => {
      await threadsService.delete(ctx.services, input.threadId);
      return { threadId: input.threadId.toLowerCase() };
    },
  },
  {
    outputFields: (t) => ({
      deletedThreadId: t.exposeID("threadId"),
      deletedId: t.globalID({
        description: "The deleted thread's global id, for client caches.",
        resolve: (payload) => ({ type: ThreadRef, id: payload.threadId }),
      }),
    }),
  },
);

builder.relayMutationField(
  "copyThread",
  {
    inputFields: (t) => ({ threadId: t.id({ required: true }) }),
  },
  {
    description: "A new thread with the same metadata, config, values and checkpoint history.",
    resolve: async (_root, { input }, ctx) => ({ thread: await threadsService.copy(ctx.services, input.threadId) }),
  },
  { outputFields: (t) => ({ thread: t.expose("thread", { type: ThreadRef }) }) },
);

builder.relayMutationField(
  "updateThreadState",
  {
    inputFields: (t) => ({
      threadId: t.id({ required: true }),
      values: t.field({ type: "JSON", description: "The update, as the node `asNode` would return it." }),
      asNode: t.string({ description: "The node the update is attributed to (decides what runs next)." }),
      checkpointId: t.string({ description: "Fork from this checkpoint instead of the latest." }),
    }),
  },
  {
    description: "Writes a new checkpoint as if a node had returned `values`; the thread needs metadata.graph_id.",
    resolve: async (_root, { input }, ctx) => {
      const { checkpoint } = await threadStateService.updateState(ctx.services, input.threadId, {
        values: input.values ?? null,
        asNode: omitNull(input.asNode),
        checkpointId: omitNull(input.checkpointId),
      });
      return { checkpointId: checkpoint.checkpointId, thread: await threadsService.get(ctx.services, input.threadId) };
    },
  },
  {
    outputFields: (t) => ({
      checkpointId: t.exposeString("checkpointId", { description: "The checkpoint the update wrote." }),
      thread: t.expose("thread", { type: ThreadRef, description: "The thread with its refreshed values and status." }),
    }),
  },
);
