import { NotFoundError } from "../domain/errors.js";
import type { SchemaKindName } from "../graphs/graph-registry.js";
import type { ServiceContext } from "./service-context.js";

/**
 * Introspection of deployed graphs (drawing, JSON schemas, subgraphs). An assistant can outlive
 * its graph's deployment (langgraph.json changed), which is a NOT_FOUND, not a crash.
 */
function requireGraph(ctx: ServiceContext, graphId: string): string {
  if (!ctx.graphs.has(graphId)) {
    throw new NotFoundError(`Graph '${graphId}' is not deployed; deployed graphs: ${ctx.graphs.names().join(", ")}`);
  }
  return graphId;
}

export const graphsService = {
  getDrawing(ctx: ServiceContext, graphId: string, options: { xray?: boolean | number }) {
    return ctx.graphs.getDrawing(requireGraph(ctx, graphId), options);
  },

  getSchemas(ctx: ServiceContext, graphId: string, options: { only?: readonly SchemaKindName[] } = {}) {
    return ctx.graphs.getSchemas(requireGraph(ctx, graphId), options);
  },

  getSubgraphs(ctx: ServiceContext, graphId: string, options: { namespace?: string; recurse?: boolean }) {
    return ctx.graphs.getSubgraphs(requireGraph(ctx, graphId), options);
  },
};
