import type { StoreItem } from "../../domain/store.js";
import { InvalidInputError } from "../../domain/errors.js";
import { storeService } from "../../services/store.service.js";
import { builder } from "../builder.js";
import { omitNull } from "../input-values.js";
import { resolveServicePage } from "../pagination.js";

export const StoreItemRef = builder.objectRef<StoreItem>("StoreItem");
const StoreNamespaceRef = builder.objectRef<{ labels: string[] }>("StoreNamespace");

/** The Relay id of an item: its namespace and key, which identify it. */
function storeItemId(item: { namespace: string[]; key: string }): string {
  return JSON.stringify([item.namespace, item.key]);
}

function parseStoreItemId(id: string): { namespace: string[]; key: string } | null {
  try {
    const [namespace, key] = JSON.parse(id) as [unknown, unknown];
    return Array.isArray(namespace) && typeof key === "string" ? { namespace: namespace as string[], key } : null;
  } catch {
    return null;
  }
}

builder.node(StoreItemRef, {
  description: "An item of the Store, the long-term memory graphs share (config.store / runtime.store).",
  id: { resolve: storeItemId },
  loadWithoutCache: async (id, ctx) => {
    const address = parseStoreItemId(id);
    return address ? storeService.get(ctx.services, { ...address, refreshTtl: false }) : null;
  },
  fields: (t) => ({
    namespace: t.exposeStringList("namespace", { description: "The namespace's labels, outermost first." }),
    key: t.exposeString("key"),
    value: t.expose("value", { type: "JSONObject" }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", nullable: true, description: "When the item's TTL runs out; null: never." }),
    score: t.float({
      nullable: true,
      description: "Cosine similarity to the search query (semantic search only; null for items without embeddings).",
      resolve: (item) => item.score ?? null,
    }),
  }),
});

StoreNamespaceRef.implement({
  description: "A namespace that holds items (or, with maxDepth, a prefix of such namespaces).",
  fields: (t) => ({
    labels: t.exposeStringList("labels"),
    path: t.string({ description: "The labels joined with dots, as the REST API writes them.", resolve: (ns) => ns.labels.join(".") }),
  }),
});

builder.queryFields((t) => ({
  storeItem: t.field({
    type: StoreItemRef,
    nullable: true,
    description: "One item; null when there is none.",
    args: {
      namespace: t.arg.stringList({ required: true }),
      key: t.arg.string({ required: true }),
      refreshTtl: t.arg.boolean({ description: "Restart the item's TTL; default: the deployment's store.ttl.refresh_on_read." }),
    },
    resolve: (_root, args, ctx) => storeService.get(ctx.services, { ...args, refreshTtl: omitNull(args.refreshTtl) }),
  }),
  storeItems: t.connection(
    {
      type: StoreItemRef,
      description:
        "Items under a namespace prefix, most recently updated first; with `query`, ranked by semantic similarity (score).",
      args: {
        namespacePrefix: t.arg.stringList({ description: "Default: every namespace." }),
        filter: t.arg({ type: "JSONObject", description: "Field conditions: a value (equality) or {$eq, $ne, $gt, $gte, $lt, $lte}." }),
        query: t.arg.string({ description: "Natural-language query; needs langgraph.json store.index." }),
        refreshTtl: t.arg.boolean(),
      },
      resolve: (_root, args, ctx) => {
        const search = { namespacePrefix: omitNull(args.namespacePrefix), filter: omitNull(args.filter), query: omitNull(args.query) };
        return resolveServicePage(
          args,
          (page) => storeService.search(ctx.services, { ...search, ...page, refreshTtl: omitNull(args.refreshTtl) }),
          () => storeService.count(ctx.services, search),
        );
      },
    },
    { name: "StoreItemConnection" },
    { name: "StoreItemEdge" },
  ),
  storeNamespaces: t.connection(
    {
      type: StoreNamespaceRef,
      description: "Distinct namespaces in label order.",
      args: {
        prefix: t.arg.stringList({ description: "Labels the namespace starts with; * matches any label." }),
        suffix: t.arg.stringList({ description: "Labels the namespace ends with; * matches any label." }),
        maxDepth: t.arg.int({ description: "Cut namespaces to their first maxDepth labels." }),
      },
      resolve: (_root, args, ctx) => {
        const listing = { prefix: omitNull(args.prefix), suffix: omitNull(args.suffix), maxDepth: omitNull(args.maxDepth) };
        return resolveServicePage(
          args,
          async (page) => (await storeService.listNamespaces(ctx.services, { ...listing, ...page })).map((labels) => ({ labels })),
          () => storeService.countNamespaces(ctx.services, listing),
        );
      },
    },
    { name: "StoreNamespaceConnection" },
    { name: "StoreNamespaceEdge" },
  ),
}));

builder.relayMutationField(
  "putStoreItem",
  {
    inputFields: (t) => ({
      namespace: t.stringList({ required: true }),
      key: t.string({ required: true }),
      value: t.field({ type: "JSONObject", required: true }),
      index: t.field({
        type: "JSON",
        description: "false: not embedded; a list of field paths: embed those; omitted or null: the deployment's store.index.fields.",
      }),
      ttl: t.float({ description: "Minutes until the item expires; omitted: the deployment's store.ttl.default_ttl." }),
      neverExpires: t.boolean({ description: "true: no TTL at all, whatever the deployment's default." }),
    }),
  },
  {
    description: "Creates or replaces an item (what a graph's store.put does).",
    resolve: async (_root, { input }, ctx) => {
      if (input.neverExpires && input.ttl != null) throw new InvalidInputError("ttl and neverExpires cannot both be given");
      const ttl = input.neverExpires ? null : omitNull(input.ttl);
      return { storeItem: await storeService.put(ctx.services, { ...input, index: input.index, ttl }) };
    },
  },
  { outputFields: (t) => ({ storeItem: t.expose("storeItem", { type: StoreItemRef }) }) },
);

builder.relayMutationField(
  "deleteStoreItem",
  {
    inputFields: (t) => ({
      namespace: t.stringList({ required: true }),
      key: t.string({ required: true }),
    }),
  },
  {
    description: "Deletes an item; deleting one that is not there does nothing.",
    resolve: async (_root, { input }, ctx) => {
      await storeService.delete(ctx.services, input);
      return { namespace: input.namespace, key: input.key };
    },
  },
  {
    outputFields: (t) => ({
      deletedId: t.globalID({
        description: "The deleted item's global id, for client caches.",
        resolve: (payload) => ({ type: StoreItemRef, id: storeItemId(payload) }),
      }),
      namespace: t.exposeStringList("namespace"),
      key: t.exposeString("key"),
    }),
  },
);
