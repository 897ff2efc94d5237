import type { GraphSchemas, JSONSchema, SchemaKindName } from "../../graphs/graph-registry.js";
import { graphsService } from "../../services/graphs.service.js";
import { builder } from "../builder.js";
import { omitNull } from "../input-values.js";
import { AssistantRef } from "./assistant.js";

/** The structure and JSON Schemas of an assistant's graph (REST: /assistants/{id}/graph|schemas|subgraphs). */

/**
 * Each schema is read on its own: a schema that needs the graph's TypeScript types compiled
 * (seconds, the first time) is only waited for when that field is selected, so a client that
 * asks for a zod-declared context schema alone is answered at once.
 */
interface GraphSchemasSource {
  graphId: string;
  read(kind: SchemaKindName): Promise<JSONSchema | null>;
}

function schemasSource(graphId: string, load: (only: readonly SchemaKindName[]) => Promise<GraphSchemas>): GraphSchemasSource {
  return { graphId, read: async (kind) => (await load([kind]))[`${kind}_schema`] };
}

const GraphSchemasRef = builder.objectRef<GraphSchemasSource>("GraphSchemas").implement({
  description: "JSON Schemas of a graph's input, output, state, config and context; null where unknown.",
  fields: (t) => ({
    graphId: t.exposeString("graphId"),
    inputSchema: t.field({ type: "JSONObject", nullable: true, resolve: (source) => source.read("input") }),
    outputSchema: t.field({ type: "JSONObject", nullable: true, resolve: (source) => source.read("output") }),
    stateSchema: t.field({ type: "JSONObject", nullable: true, resolve: (source) => source.read("state") }),
    configSchema: t.field({ type: "JSONObject", nullable: true, resolve: (source) => source.read("config") }),
    contextSchema: t.field({ type: "JSONObject", nullable: true, resolve: (source) => source.read("context") }),
  }),
});

const SubgraphRef = builder.objectRef<{ namespace: string; schemas: GraphSchemasSource }>("Subgraph").implement({
  fields: (t) => ({
    namespace: t.exposeString("namespace", { description: "`child`, or `child|grandchild` when recursing." }),
    schemas: t.expose("schemas", { type: GraphSchemasRef }),
  }),
});

// These resolve through the services by assistant id, which costs one assistant lookup each:
// select them on one assistant, not across a long list.
builder.objectFields(AssistantRef, (t) => ({
  graphSchemas: t.field({
    type: GraphSchemasRef,
    resolve: (assistant, _args, ctx) =>
      schemasSource(assistant.graphId, (only) => graphsService.getSchemas(ctx.services, assistant.graphId, { only })),
  }),
  graphDrawing: t.field({
    type: "JSONObject",
    description: "Nodes and edges of the graph, as LangGraph draws it.",
    args: { xray: t.arg.int({ description: "Also draw subgraphs, this many levels deep." }) },
    resolve: async (assistant, args, ctx) => ({
      ...(await graphsService.getDrawing(ctx.services, assistant.graphId, { xray: args.xray ?? false })),
    }),
  }),
  subgraphs: t.field({
    type: [SubgraphRef],
    args: {
      namespace: t.arg.string({ description: "Only the subgraph at this namespace." }),
      recurse: t.arg.boolean({ description: "Include nested subgraphs." }),
    },
    resolve: async (assistant, args, ctx) => {
      const byNamespace = await graphsService.getSubgraphs(ctx.services, assistant.graphId, {
        namespace: omitNull(args.namespace),
        recurse: omitNull(args.recurse),
      });
      return Object.entries(byNamespace).map(([namespace, schemas]) => ({
        namespace,
        schemas: schemasSource(schemas.graph_id, async () => schemas),
      }));
    },
  }),
}));
