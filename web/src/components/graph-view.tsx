import { Background, BaseEdge, Controls, Handle, MarkerType, Position, ReactFlow, type Edge, type EdgeProps, type Node, type NodeProps } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { createContext, useContext, useEffect, useMemo, useRef } from "react";
import { readHumanInterrupt } from "../lib/human-interrupt.js";
import { collapseDrawing, layoutDrawing, readDrawing, subgraphsOf, type LaidOutNode, type Point } from "../lib/graph-layout.js";
import { NO_ACTIVITY, type NodeActivity } from "../lib/node-activity.js";
import { countOf } from "../lib/format.js";

type NodeState = "idle" | "active" | "finished" | "interrupted";

interface GraphNodeData extends Record<string, unknown> {
  box: LaidOutNode;
}

type GraphNode = Node<GraphNodeData, "graph">;

/**
 * What changes while a graph is shown (node states, expanded subgraphs), given to the nodes
 * through context: React Flow's node list then changes only with the layout. Handed new node
 * objects on every run event, React Flow lost every edge after a few runs (approval: 6 edges to 0
 * after two interrupt answers).
 */
interface GraphLiveState {
  activity: NodeActivity;
  expanded: ReadonlySet<string>;
  onToggle: ((id: string) => void) | null;
  breakpoints: Breakpoints | null;
  onBreakpoint: ((id: string) => void) | null;
  /** Nodes the step view points at (the scrubber's step, or the clicked node). */
  highlighted: readonly string[];
}

/** Nodes a run stops before / after (interrupt_before / interrupt_after), set from the graph. */
export interface Breakpoints {
  before: ReadonlySet<string>;
  after: ReadonlySet<string>;
}

/** A node's breakpoint as the toggle cycles it: none, before, after, none. */
export function nextBreakpoints(breakpoints: Breakpoints, id: string): Breakpoints {
  const before = new Set(breakpoints.before);
  const after = new Set(breakpoints.after);
  if (before.delete(id)) after.add(id);
  else if (!after.delete(id)) before.add(id);
  return { before, after };
}

const GraphLiveStateContext = createContext<GraphLiveState>({
  activity: NO_ACTIVITY,
  expanded: new Set(),
  onToggle: null,
  breakpoints: null,
  onBreakpoint: null,
  highlighted: [],
});

function GraphNodeBox({ data }: NodeProps<GraphNode>) {
  const { box } = data;
  const live = useContext(GraphLiveStateContext);
  const state = stateOf(box.id, live.activity);
  const interrupts = Object.entries(live.activity.interrupted).find(([name]) => name === box.id || box.id.endsWith(`:${name}`))?.[1] ?? null;
  const isExpanded = live.expanded.has(box.id);
  const onToggle = live.onToggle;
  const breakpoint = live.breakpoints?.before.has(box.id) ? "before" : live.breakpoints?.after.has(box.id) ? "after" : null;
  const canBreak = live.onBreakpoint !== null && box.kind !== "start" && box.kind !== "end";
  const isHighlighted = live.highlighted.some((name) => name === box.id || box.id.startsWith(`${name}:`));
  return (
    <div
      className={`graph-node graph-node-${box.kind} graph-node-${state}${isHighlighted ? " graph-node-highlighted" : ""}`}
      data-node-id={box.id}
      data-state={state}
      data-highlighted={isHighlighted || undefined}
      title={interrupts ? `Waiting on interrupt: ${JSON.stringify(interrupts)}` : box.id}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <span className="graph-node-label">{box.label}</span>
      {state === "active" && <span className="graph-node-pulse" aria-label="running" />}
      {interrupts && (
        <span className="graph-node-interrupt" data-testid="node-interrupt">
          waiting: {summarize(interrupts)}
        </span>
      )}
      {onToggle && (box.kind === "subgraph" || isExpanded) && (
        <button type="button" className="graph-node-toggle nodrag" aria-label={`${isExpanded ? "Collapse" : "Expand"} subgraph ${box.id}`} onClick={(event) => {
            // The node itself toggles on click too: one toggle per click.
            event.stopPropagation();
            onToggle(box.id);
          }}>
          {isExpanded ? "−" : "+"}
        </button>
      )}
      {canBreak && (
        <button
          type="button"
          className={`graph-node-breakpoint nodrag${breakpoint ? " graph-node-breakpoint-set" : ""}`}
          aria-label={`Breakpoint on ${box.id}: ${breakpoint ? `stop ${breakpoint}` : "none"}`}
          title="Stop the next runs before this node, after it, or not (click to cycle)"
          onClick={(event) => {
            event.stopPropagation();
            live.onBreakpoint?.(box.id);
          }}
        >
          {breakpoint ? `stop ${breakpoint}` : "+ stop"}
        </button>
      )}
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

/** A HumanInterrupt by its action and description, anything else as compact JSON. */
function summarize(values: unknown[]): string {
  const human = values.length === 1 ? readHumanInterrupt(values[0]) : null;
  if (human) return [human.request.action, human.request.description].filter(Boolean).join(": ");
  const text = JSON.stringify(values.length === 1 ? values[0] : values) ?? "";
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

const NODE_TYPES = { graph: GraphNodeBox };
const NO_NODES: readonly string[] = [];

interface RoutedEdgeData extends Record<string, unknown> {
  points: Point[];
  isBackEdge: boolean;
}

type RoutedEdge = Edge<RoutedEdgeData, "routed">;

/** An edge along the route the layout chose (graph-layout.ts), not React Flow's handle-to-handle curve. */
function RoutedEdgePath({ id, data, markerEnd, style, label }: EdgeProps<RoutedEdge>) {
  const points = data?.points ?? [];
  const path = points.map((point, index) => `${index === 0 ? "M" : "L"} ${point.x} ${point.y}`).join(" ");
  const middle = points[Math.floor((points.length - 1) / 2)];
  return <BaseEdge id={id} path={path} markerEnd={markerEnd} style={style} label={label} labelX={middle?.x} labelY={middle?.y} />;
}

const EDGE_TYPES = { routed: RoutedEdgePath };

/** Nodes named by a run (`research` while its `research:search` runs) match their drawn box. */
function stateOf(id: string, activity: NodeActivity): NodeState {
  const names = (list: readonly string[]) => list.some((name) => name === id || id.endsWith(`:${name}`) || name.startsWith(`${id}:`));
  if (Object.keys(activity.interrupted).some((name) => name === id || id.endsWith(`:${name}`))) return "interrupted";
  if (names(activity.active)) return "active";
  if (names(activity.finished)) return "finished";
  return "idle";
}

/**
 * The graph as LangGraph draws it, laid out with dagre and shown with React Flow; nodes take the
 * state the current run gives them. Expandable subgraphs fold in and out (`expanded`); the
 * drawing must be fetched with an xray depth covering them. Records the time from drawing to
 * painted nodes as the `graph-view` performance measure (and in data-render-ms).
 */
export function GraphView({
  drawing,
  activity = NO_ACTIVITY,
  expanded,
  onToggleSubgraph,
  subgraphNodes = [],
  height = 420,
  breakpoints = null,
  onBreakpoint,
  highlighted = NO_NODES,
  onSelectNode,
}: {
  drawing: unknown;
  activity?: NodeActivity;
  expanded: ReadonlySet<string>;
  onToggleSubgraph?: (id: string) => void;
  /** Nodes known to be subgraphs (Assistant.subgraphs), drawn expandable. */
  subgraphNodes?: readonly string[];
  height?: number;
  /** Breakpoints shown on the nodes; with onBreakpoint, each node has a toggle for its own. */
  breakpoints?: Breakpoints | null;
  onBreakpoint?: (id: string) => void;
  highlighted?: readonly string[];
  /** Clicking a node selects it (the step view shows its runs); subgraphs then open with their button. */
  onSelectNode?: (id: string) => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const layout = useMemo(() => {
    performance.mark("graph-view:start");
    const full = readDrawing(drawing);
    const shown = collapseDrawing(full, expanded);
    const folded = new Set([...subgraphsOf(full).filter((id) => !expanded.has(id)), ...subgraphNodes.filter((id) => !expanded.has(id))]);
    return layoutDrawing(shown, folded);
  }, [drawing, expanded, subgraphNodes]);

  const nodes = useMemo(
    (): GraphNode[] =>
      layout.nodes.map((box) => ({
        id: box.id,
        type: "graph",
        position: { x: box.x, y: box.y },
        width: box.width,
        height: box.height,
        // Declared, not measured: React Flow draws an edge only once both ends have handle bounds,
        // and new node objects (a redraw of the layout) drop the measured ones until a resize
        // observation comes back, which under load sometimes never did (CI: approval's nodes
        // drawn, no edge after 10 s). The routed edges ignore where the handles are anyway.
        handles: [
          { type: "target", position: Position.Top, x: box.width / 2, y: 0 },
          { type: "source", position: Position.Bottom, x: box.width / 2, y: box.height },
        ],
        draggable: false,
        selectable: false,
        data: { box },
      })),
    [layout],
  );
  const live = useMemo(
    () => ({ activity, expanded, onToggle: onToggleSubgraph ?? null, breakpoints, onBreakpoint: onBreakpoint ?? null, highlighted }),
    [activity, expanded, onToggleSubgraph, breakpoints, onBreakpoint, highlighted],
  );
  // A different graph (another assistant, a subgraph expanded) starts a new canvas, fitted to it:
  // React Flow fits the view only when it mounts.
  const shape = useMemo(() => layout.nodes.map((box) => box.id).join("|"), [layout]);
  const edges = useMemo(
    (): RoutedEdge[] =>
      layout.edges.map((edge) => ({
        id: edge.id,
        source: edge.source,
        target: edge.target,
        type: "routed",
        data: { points: edge.points, isBackEdge: edge.isBackEdge },
        label: edge.label ?? undefined,
        animated: edge.conditional,
        className: `${edge.conditional ? "graph-edge-conditional" : "graph-edge"}${edge.isBackEdge ? " graph-edge-back" : ""}`,
        markerEnd: { type: MarkerType.ArrowClosed, color: "var(--graph-edge)", width: 16, height: 16 },
      })),
    [layout],
  );

  // Measured once the browser has painted the laid-out nodes.
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      performance.mark("graph-view:painted");
      const measure = performance.measure("graph-view", "graph-view:start", "graph-view:painted");
      container.current?.setAttribute("data-render-ms", measure.duration.toFixed(1));
    });
    return () => cancelAnimationFrame(frame);
  }, [layout]);

  // Expanded subgraphs are framed by their nodes' ids; listed for people reading the picture.
  const expandedList = [...expanded];
  return (
    <div
      className="graph-view"
      ref={container}
      style={{ height }}
      data-testid="graph-view"
      data-node-count={layout.nodes.length}
      aria-label={`Graph with ${countOf(layout.nodes.length, "node")}${expandedList.length ? `, subgraphs ${expandedList.join(", ")} expanded` : ""}`}
      role="figure"
    >
      <GraphLiveStateContext.Provider value={live}>
      <ReactFlow
        key={shape}
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        edgeTypes={EDGE_TYPES}
        fitView
        // Room for back-edge lanes, which run right of the nodes fitView frames.
        fitViewOptions={{ padding: 0.2 }}
        minZoom={0.1}
        nodesDraggable={false}
        nodesConnectable={false}
        // A handler makes nodes take pointer events (the expand buttons); clicking a subgraph opens it.
        onNodeClick={(_event, node) => {
          const box = (node.data as GraphNodeData).box;
          if (onSelectNode) {
            if (box.kind !== "start" && box.kind !== "end") onSelectNode(box.id);
          } else if (onToggleSubgraph && box.kind === "subgraph") onToggleSubgraph(box.id);
        }}
      >
        <Background gap={16} />
        <Controls showInteractive={false} />
      </ReactFlow>
      </GraphLiveStateContext.Provider>
    </div>
  );
}
