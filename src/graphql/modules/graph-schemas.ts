import type { GraphSchemas } from "../../graphs/graph-registry.js";
import { graphsService } from "../../services/graphs.service.js";
import { builder } from "../builder.js";
import { omitNull } from "../input-values.js";
import { AssistantRef } from "./assistant.js";

/** The structure and JSON Schemas of an assistant's graph (REST: /assistants/{id}/graph|schemas|subgraphs). */

const GraphSchemasRef = builder.objectRef<GraphSchemas>("GraphSchemas").implement({
  description: "JSON Schemas of a graph's input, output, state, config and context; null where unknown.",
  fields: (t) => ({
    graphId: t.exposeString("graph_id"),
    inputSchema: t.expose("input_schema", { type: "JSONObject", nullable: true }),
    outputSchema: t.expose("output_schema", { type: "JSONObject", nullable: true }),
    stateSchema: t.expose("state_schema", { type: "JSONObject", nullable: true }),
    configSchema: t.expose("config_schema", { type: "JSONObject", nullable: true }),
    contextSchema: t.expose("context_schema", { type: "JSONObject", nullable: true }),
  }),
});

const SubgraphRef = builder.objectRef<{ namespace: string; schemas: GraphSchemas }>("Subgraph").implement({
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
    resolve: (assistant, _args, ctx) => graphsService.getSchemas(ctx.services, assistant.graphId),
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
      return Object.entries(byNamespace).map(([namespace, schemas]) => ({ namespace, schemas }));
    },
  }),
}));
