import dagre from "@dagrejs/dagre";

/**
 * A LangGraph drawing (Assistant.graphDrawing: `getGraph({ xray }).toJSON()`) turned into
 * positioned boxes. With xray, a subgraph's nodes are named `parent:child`; collapsing a
 * subgraph folds those back into the one `parent` node, so each subgraph can be opened on its
 * own while the drawing is fetched once at the deepest level needed.
 */

export interface DrawingNode {
  id: string;
  name?: string;
  type?: string;
  data?: unknown;
}

export interface DrawingEdge {
  source: string;
  target: string;
  data?: string;
  conditional?: boolean;
}

export interface GraphDrawing {
  nodes: DrawingNode[];
  edges: DrawingEdge[];
}

export interface LaidOutNode {
  id: string;
  label: string;
  kind: "start" | "end" | "node" | "subgraph";
  /** The subgraph this node sits in when expanded (`research` for `research:search`), else null. */
  parent: string | null;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface LaidOutEdge {
  id: string;
  source: string;
  target: string;
  label: string | null;
  conditional: boolean;
  /** Goes back up the graph (a cycle): routed around the right of the nodes it passes. */
  isBackEdge: boolean;
  /** The route to draw, from the source's border to the target's. */
  points: Point[];
}

export const START_NODE = "__start__";
export const END_NODE = "__end__";
const NODE_HEIGHT = 36;
const CHAR_WIDTH = 7.5;
/** Room between the nodes and the first back-edge lane, and between lanes. */
const LANE_GAP = 22;
const LANE_SPACING = 14;

export function readDrawing(value: unknown): GraphDrawing {
  const record = (value ?? {}) as { nodes?: unknown; edges?: unknown };
  const nodes = Array.isArray(record.nodes) ? (record.nodes as DrawingNode[]) : [];
  const edges = Array.isArray(record.edges) ? (record.edges as DrawingEdge[]) : [];
  return { nodes: nodes.map((node) => ({ ...node, id: String(node.id) })), edges };
}

/** A node that is itself a compiled graph (LangGraph draws it as a runnable of a Pregel/graph class). */
export function isSubgraphNode(node: DrawingNode): boolean {
  const ids = (node.data as { id?: unknown } | undefined)?.id;
  return Array.isArray(ids) && ids.some((part) => typeof part === "string" && /^(pregel|CompiledStateGraph|CompiledGraph)$/.test(part));
}

/** The prefixes of xray node ids (`a:b:c` → `a`, `a:b`): the subgraphs a drawing has expanded. */
export function subgraphsOf(drawing: GraphDrawing): string[] {
  const found = new Set<string>();
  for (const node of drawing.nodes) {
    const parts = node.id.split(":");
    for (let depth = 1; depth < parts.length; depth++) found.add(parts.slice(0, depth).join(":"));
  }
  return [...found].sort();
}

/** Folds every subgraph not in `expanded` back into its node; edges inside a folded subgraph go. */
export function collapseDrawing(drawing: GraphDrawing, expanded: ReadonlySet<string>): GraphDrawing {
  const shownId = (id: string) => {
    const parts = id.split(":");
    for (let depth = 1; depth < parts.length; depth++) {
      const prefix = parts.slice(0, depth).join(":");
      if (!expanded.has(prefix)) return prefix;
    }
    return id;
  };
  const nodes = new Map<string, DrawingNode>();
  for (const node of drawing.nodes) {
    const id = shownId(node.id);
    if (!nodes.has(id)) nodes.set(id, id === node.id ? node : { id, name: id, data: { id: ["CompiledStateGraph"] } });
  }
  const edges = new Map<string, DrawingEdge>();
  for (const edge of drawing.edges) {
    const source = shownId(edge.source);
    const target = shownId(edge.target);
    if (source === target) continue;
    const key = `${source}->${target}`;
    if (!edges.has(key)) edges.set(key, { ...edge, source, target });
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}

function kindOf(node: DrawingNode, isCollapsedSubgraph: boolean): LaidOutNode["kind"] {
  if (node.id === START_NODE) return "start";
  if (node.id === END_NODE) return "end";
  return isCollapsedSubgraph ? "subgraph" : "node";
}

function labelOf(id: string): string {
  if (id === START_NODE) return "start";
  if (id === END_NODE) return "end";
  return id.split(":").at(-1) ?? id;
}

/** Top-to-bottom layered layout (dagre), each box sized to its label. */
export function layoutDrawing(drawing: GraphDrawing, subgraphIds: ReadonlySet<string> = new Set()): { nodes: LaidOutNode[]; edges: LaidOutEdge[]; width: number; height: number } {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: "TB", nodesep: 28, ranksep: 44, marginx: 12, marginy: 12 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of drawing.nodes) {
    const label = labelOf(node.id);
    graph.setNode(node.id, { width: Math.max(72, label.length * CHAR_WIDTH + 36), height: NODE_HEIGHT });
  }
  for (const edge of drawing.edges) {
    if (graph.hasNode(edge.source) && graph.hasNode(edge.target)) graph.setEdge(edge.source, edge.target);
  }
  dagre.layout(graph);
  const nodes = drawing.nodes.map((node): LaidOutNode => {
    const box = graph.node(node.id);
    const parts = node.id.split(":");
    return {
      id: node.id,
      label: labelOf(node.id),
      kind: kindOf(node, subgraphIds.has(node.id) || isSubgraphNode(node)),
      parent: parts.length > 1 ? parts.slice(0, -1).join(":") : null,
      x: box.x - box.width / 2,
      y: box.y - box.height / 2,
      width: box.width,
      height: box.height,
    };
  });
  const byId = new Map(nodes.map((node) => [node.id, node]));
  let lanes = 0;
  const edges = drawing.edges.flatMap((edge, index): LaidOutEdge[] => {
    const source = byId.get(edge.source);
    const target = byId.get(edge.target);
    if (!source || !target) return [];
    const isBackEdge = target.y <= source.y;
    const points = isBackEdge ? backEdgeRoute(source, target, nodes, lanes++) : forwardRoute(graph.edge(edge.source, edge.target)?.points, source, target);
    return [
      {
        id: `${edge.source}->${edge.target}#${index}`,
        source: edge.source,
        target: edge.target,
        label: edge.data ?? null,
        conditional: edge.conditional === true,
        isBackEdge,
        points,
      },
    ];
  });
  const size = graph.graph();
  return { nodes, edges, width: size.width ?? 0, height: size.height ?? 0 };
}

/** dagre's route for a forward edge (it bends around nodes in between), else a straight line. */
function forwardRoute(points: Point[] | undefined, source: LaidOutNode, target: LaidOutNode): Point[] {
  if (points && points.length >= 2) return points.map(({ x, y }) => ({ x, y }));
  return [
    { x: source.x + source.width / 2, y: source.y + source.height },
    { x: target.x + target.width / 2, y: target.y },
  ];
}

/**
 * A back edge leaves its source's right side, runs up a lane right of every node between the two
 * (each back edge its own lane), and enters its target's right side: never over forward edges.
 */
function backEdgeRoute(source: LaidOutNode, target: LaidOutNode, nodes: readonly LaidOutNode[], lane: number): Point[] {
  const top = target.y;
  const bottom = source.y + source.height;
  const passed = nodes.filter((node) => node.y < bottom && node.y + node.height > top);
  const laneX = Math.max(...passed.map((node) => node.x + node.width)) + LANE_GAP + lane * LANE_SPACING;
  const from = { x: source.x + source.width, y: source.y + source.height / 2 };
  const to = { x: target.x + target.width, y: target.y + target.height / 2 };
  // A self-loop (source is target) still needs height to be seen.
  const rise = source === target ? NODE_HEIGHT / 3 : 0;
  return [
    { x: from.x, y: from.y + rise },
    { x: laneX, y: from.y + rise },
    { x: laneX, y: to.y - rise },
    { x: to.x, y: to.y - rise },
  ];
}
