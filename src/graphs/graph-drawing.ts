import type { CompiledGraphLike } from "./graph-shapes.js";

export interface GraphDrawing {
  nodes: Array<{ id: string | number; name?: string; data?: unknown; metadata?: unknown }>;
  edges: Array<{ source: string; target: string; data?: string; conditional?: boolean }>;
}

interface RawNode {
  id: string | number;
  name?: string;
  data?: unknown;
  metadata?: unknown;
}

interface RawEdge {
  source: string | number;
  target: string | number;
  data?: unknown;
  conditional?: boolean;
}

/**
 * The drawable structure served by GET /assistants/{id}/graph: LangGraph's own
 * `getGraphAsync({ xray }).toJSON()`. @langchain/core numbers nodes whose id is a UUID, so edge
 * endpoints can be numbers; we turn every id into a string so nodes and edges always match
 * (LangGraph names its nodes, so in practice they are strings already).
 */
export async function drawGraph(graph: CompiledGraphLike, xray: boolean | number = false): Promise<GraphDrawing> {
  const options = { xray };
  const drawable =
    typeof graph.getGraphAsync === "function" ? await graph.getGraphAsync(options) : graph.getGraph?.(options);
  if (drawable === undefined) throw new Error("graph exposes neither getGraphAsync nor getGraph");
  const json = drawable.toJSON() as { nodes: RawNode[]; edges: RawEdge[] };
  return {
    nodes: json.nodes.map((node) => ({ ...node, id: String(node.id) })),
    edges: json.edges.map(({ source, target, data, conditional }) => ({
      source: String(source),
      target: String(target),
      ...(data !== undefined ? { data: String(data) } : {}),
      ...(conditional !== undefined ? { conditional } : {}),
    })),
  };
}
