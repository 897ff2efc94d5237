import { ASSISTANT_SORT_FIELDS, type Assistant, type AssistantVersion } from "../../domain/assistant.js";
import { assistantsService, resolveAssistantId } from "../../services/assistants.service.js";
import { builder } from "../builder.js";
import { omitNull } from "../input-values.js";
import { resolveListPage, resolveServicePage } from "../pagination.js";
import { enumValuesOf, IfExists, SortOrder } from "./enums.js";

export const AssistantRef = builder.objectRef<Assistant>("Assistant");
export const AssistantVersionRef = builder.objectRef<AssistantVersion>("AssistantVersion");

const ASSISTANT_ID_ARG = "An assistant UUID, or a deployed graph's name (meaning that graph's system assistant).";

/** What an assistant and each of its versions share: the fields a version is made of. */
const AssistantConfigurationRef = builder.interfaceRef<AssistantVersion>("AssistantConfiguration").implement({
  description: "A graph configuration: an assistant (its active version) or one saved version.",
  fields: (t) => ({
    assistantId: t.exposeID("assistantId", { description: "The raw UUID (REST's assistant_id)." }),
    graphId: t.exposeString("graphId"),
    name: t.exposeString("name"),
    description: t.exposeString("description", { nullable: true }),
    config: t.expose("config", { type: "JSONObject" }),
    context: t.expose("context", { type: "JSONObject" }),
    metadata: t.expose("metadata", { type: "JSONObject" }),
    version: t.exposeInt("version"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.node(AssistantRef, {
  description: "A versioned configuration of a deployed graph. Its fields are those of its active version.",
  interfaces: [AssistantConfigurationRef],
  isTypeOf: (value) => typeof value === "object" && value !== null && "updatedAt" in value,
  id: { resolve: (assistant) => assistant.assistantId },
  loadWithoutCache: (id, ctx) => ctx.loaders.assistant.load(id),
  fields: (t) => ({
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    versions: t.connection(
      {
        type: AssistantVersionRef,
        description: "Every version, newest first (batched across assistants: one query per request).",
        resolve: async (assistant, args, ctx) =>
          resolveListPage(args, await ctx.loaders.assistantVersions.load(assistant.assistantId)),
      },
      { name: "AssistantVersionConnection" },
      { name: "AssistantVersionEdge" },
    ),
  }),
});

builder.objectType(AssistantVersionRef, {
  description: "One immutable version of an assistant.",
  interfaces: [AssistantConfigurationRef],
  isTypeOf: (value) => typeof value === "object" && value !== null && !("updatedAt" in value),
  fields: () => ({}),
});

const AssistantSortBy = builder.enumType("AssistantSortBy", { values: enumValuesOf(ASSISTANT_SORT_FIELDS) });

builder.queryFields((t) => ({
  assistant: t.field({
    type: AssistantRef,
    description: "One assistant; NOT_FOUND when it does not exist.",
    args: { assistantId: t.arg.id({ required: true, description: ASSISTANT_ID_ARG }) },
    resolve: (_root, args, ctx) => assistantsService.get(ctx.services, args.assistantId),
  }),
  assistants: t.connection(
    {
      type: AssistantRef,
      description: "Assistants matching every given filter, in a stable order (ties broken by id).",
      args: {
        graphId: t.arg.string(),
        name: t.arg.string({ description: "Case-insensitive substring of the name." }),
        metadata: t.arg({ type: "JSONObject", description: "Metadata containing these keys and values." }),
        unconfigured: t.arg.boolean({ description: "true: only assistants whose config is empty." }),
        sortBy: t.arg({ type: AssistantSortBy, defaultValue: "created_at" }),
        sortOrder: t.arg({ type: SortOrder, defaultValue: "desc" }),
      },
      resolve: (_root, args, ctx) => {
        const filter = {
          graphId: omitNull(args.graphId),
          name: omitNull(args.name),
          metadata: omitNull(args.metadata),
          config: args.unconfigured ? {} : undefined,
        };
        const order = { sortBy: args.sortBy ?? undefined, sortOrder: args.sortOrder ?? undefined };
        return resolveServicePage(
          args,
          (page) => assistantsService.search(ctx.services, { ...filter, ...order, ...page }),
          () => assistantsService.count(ctx.services, filter),
        );
      },
    },
    { name: "AssistantConnection" },
    { name: "AssistantEdge" },
  ),
}));

type JsonInput = Record<string, unknown> | null | undefined;

/** The fields a version is made of, from a create or update input (GraphQL null → omitted). */
function versionFieldsOf(input: {
  graphId?: string | null;
  name?: string | null;
  description?: string | null;
  config?: JsonInput;
  context?: JsonInput;
  metadata?: JsonInput;
}) {
  return {
    graphId: omitNull(input.graphId),
    name: omitNull(input.name),
    // description keeps null: it clears the description, while omitted carries it over.
    description: input.description,
    config: omitNull(input.config),
    context: omitNull(input.context),
    metadata: omitNull(input.metadata),
  };
}

builder.relayMutationField(
  "createAssistant",
  {
    inputFields: (t) => ({
      graphId: t.string({ required: true, description: "A deployed graph; INVALID_INPUT otherwise." }),
      assistantId: t.id({ description: "A UUID to use; generated when omitted." }),
      ifExists: t.field({ type: IfExists }),
      name: t.string(),
      description: t.string(),
      config: t.field({ type: "JSONObject" }),
      context: t.field({ type: "JSONObject" }),
      metadata: t.field({ type: "JSONObject" }),
    }),
  },
  {
    description: "Creates an assistant (version 1) for a deployed graph.",
    resolve: async (_root, { input }, ctx) => ({
      assistant: await assistantsService.create(ctx.services, {
        ...versionFieldsOf(input),
        graphId: input.graphId,
        assistantId: omitNull(input.assistantId),
        ifExists: omitNull(input.ifExists),
      }),
    }),
  },
  { outputFields: (t) => ({ assistant: t.expose("assistant", { type: AssistantRef }) }) },
);

builder.relayMutationField(
  "updateAssistant",
  {
    inputFields: (t) => ({
      assistantId: t.id({ required: true, description: ASSISTANT_ID_ARG }),
      graphId: t.string(),
      name: t.string(),
      description: t.string({ description: "null clears it; omitted keeps it." }),
      config: t.field({ type: "JSONObject" }),
      context: t.field({ type: "JSONObject" }),
      metadata: t.field({ type: "JSONObject" }),
    }),
  },
  {
    description:
      "Creates version N+1 and makes it active. context and metadata are exactly what is given " +
      "(omitted → {}); graphId, name, description and config carry over when omitted.",
    resolve: async (_root, { input }, ctx) => ({
      assistant: await assistantsService.update(ctx.services, input.assistantId, versionFieldsOf(input)),
    }),
  },
  { outputFields: (t) => ({ assistant: t.expose("assistant", { type: AssistantRef }) }) },
);

builder.relayMutationField(
  "setAssistantVersion",
  {
    inputFields: (t) => ({
      assistantId: t.id({ required: true, description: ASSISTANT_ID_ARG }),
      version: t.int({ required: true }),
    }),
  },
  {
    description: "Makes an existing version active; NOT_FOUND for an unknown version.",
    resolve: async (_root, { input }, ctx) => ({
      assistant: await assistantsService.setActiveVersion(ctx.services, input.assistantId, input.version),
    }),
  },
  { outputFields: (t) => ({ assistant: t.expose("assistant", { type: AssistantRef }) }) },
);

builder.relayMutationField(
  "deleteAssistant",
  {
    inputFields: (t) => ({
      assistantId: t.id({ required: true, description: ASSISTANT_ID_ARG }),
      deleteThreads: t.boolean({ defaultValue: false, description: "Also delete the threads it created." }),
    }),
  },
  {
    description: "Deletes the assistant with all its versions.",
    resolve: async (_root, { input }, ctx) => {
      const assistantId = resolveAssistantId(ctx.services, input.assistantId);
      await assistantsService.delete(ctx.services, assistantId, { deleteThreads: input.deleteThreads ?? false });
      return { assistantId };
    },
  },
  {
    outputFields: (t) => ({
      deletedAssistantId: t.exposeID("assistantId"),
      deletedId: t.globalID({
        description: "The deleted assistant's global id, for client caches.",
        resolve: (payload) => ({ type: AssistantRef, id: payload.assistantId }),
      }),
    }),
  },
);
