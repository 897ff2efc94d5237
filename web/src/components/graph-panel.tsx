import { useCallback, useMemo, useState } from "react";
import { useQuery } from "../api/use-query.js";
import { AssistantGraphDocument, AssistantSubgraphsDocument } from "../generated/graphql.js";
import { NO_ACTIVITY, xrayDepthFor, type NodeActivity } from "../lib/node-activity.js";
import { ErrorBanner, Loading } from "./feedback.js";
import { GraphView, type Breakpoints } from "./graph-view.js";
import { RunStepsPanel } from "./run-steps.js";
import { useThreadHistory } from "./use-thread-history.js";

/**
 * An assistant's graph, fetched over GraphQL (Assistant.graphDrawing) at the xray depth its
 * expanded subgraphs need. "Expand all" is LangGraph's xray: every subgraph, every level.
 * Given a thread, it steps through that thread's history too (RunStepsPanel): a scrubber over
 * the steps, and a clicked node's input, output and duration at each step it ran.
 */
export function GraphPanel({
  assistantId,
  activity = NO_ACTIVITY,
  height,
  breakpoints,
  onBreakpoint,
  threadId = null,
  stepsRefreshKey = "",
}: {
  assistantId: string;
  /** The thread whose steps to show; none: the graph alone. */
  threadId?: string | null;
  /** Changes when the thread's history may have grown (a node finished, a run ended). */
  stepsRefreshKey?: string;
  activity?: NodeActivity;
  height?: number;
  /** Where the next runs stop (the Test page); each node then has a breakpoint toggle. */
  breakpoints?: Breakpoints | null;
  onBreakpoint?: (id: string) => void;
}) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const subgraphs = useQuery(AssistantSubgraphsDocument, { assistantId });
  const namespaces = useMemo(() => subgraphs.data?.assistant.subgraphs.map((subgraph) => subgraph.namespace) ?? [], [subgraphs.data]);
  const depth = xrayDepthFor(expanded);
  const graph = useQuery(AssistantGraphDocument, { assistantId, xray: depth > 0 ? depth : null });
  // Subgraph namespaces are `child|grandchild`; drawings name nested nodes `child:grandchild`.
  const subgraphNodes = useMemo(() => namespaces.map((namespace) => namespace.replaceAll("|", ":")), [namespaces]);
  const toggle = useCallback((id: string) => {
    setExpanded((previous) => {
      const next = new Set(previous);
      if (next.has(id)) {
        for (const item of previous) if (item === id || item.startsWith(`${id}:`)) next.delete(item);
      } else next.add(id);
      return next;
    });
  }, []);
  const allExpanded = subgraphNodes.length > 0 && subgraphNodes.every((id) => expanded.has(id));
  const history = useThreadHistory(threadId, null, stepsRefreshKey);
  // null: follow the newest step as the thread grows; once the user moves the scrubber, the
  // step it points at (by the checkpoint it started from: loading earlier steps shifts indexes).
  const [pickedStep, setPickedStep] = useState<string | null>(null);
  const [selectedNode, setSelectedNode] = useState<string | null>(null);
  const pickedIndex = history.steps.findIndex((step) => step.checkpointId === pickedStep);
  const position = pickedIndex >= 0 ? pickedIndex : history.steps.length - 1;
  const highlighted = useMemo(() => {
    if (!threadId) return NO_NODES;
    if (selectedNode) return [selectedNode];
    return history.steps[position]?.nodes.map((run) => run.node) ?? NO_NODES;
  }, [threadId, selectedNode, history.steps, position]);
  const selectNode = useCallback((id: string) => setSelectedNode((previous) => (previous === id ? null : id)), []);

  return (
    <section className="panel graph-panel" aria-labelledby="graph-title">
      <div className="panel-title-row">
        <h2 className="panel-title" id="graph-title">
          Graph
        </h2>
        {subgraphNodes.length > 0 && (
          <label className="checkbox">
            <input type="checkbox" checked={allExpanded} onChange={() => setExpanded(allExpanded ? new Set() : new Set(subgraphNodes))} />
            Expand subgraphs (xray)
          </label>
        )}
      </div>
      <ErrorBanner error={graph.error} onRetry={graph.refetch} />
      {graph.data ? (
        <GraphView drawing={graph.data.assistant.graphDrawing} activity={activity} expanded={expanded} onToggleSubgraph={toggle} subgraphNodes={subgraphNodes} height={height} breakpoints={breakpoints} onBreakpoint={onBreakpoint} highlighted={highlighted} onSelectNode={threadId ? selectNode : undefined} />
      ) : (
        graph.isLoading && <Loading />
      )}
      {/* Each swatch and its word wrap together: a line break never leaves a swatch without its label. */}
      <ul className="muted small graph-legend" aria-label="Legend">
        <li>
          <span className="legend-swatch graph-node-active" /> running
        </li>
        <li>
          <span className="legend-swatch graph-node-finished" /> done
        </li>
        <li>
          <span className="legend-swatch graph-node-interrupted" /> waiting on interrupt
        </li>
        <li>dashed: conditional edge</li>
        {threadId && (
          <li>
            <span className="legend-swatch graph-node-highlighted" /> shown step (click a node for its runs)
          </li>
        )}
      </ul>
      {threadId && (
        <>
          <ErrorBanner error={history.error} />
          <RunStepsPanel
            steps={history.steps}
            position={Math.max(0, position)}
            onPosition={(index) => {
              setSelectedNode(null);
              setPickedStep(history.steps[index]?.checkpointId ?? null);
            }}
            selectedNode={selectedNode}
            onClearNode={() => setSelectedNode(null)}
            hasEarlier={history.hasEarlier}
            onLoadEarlier={() => void history.loadEarlier()}
            threadId={threadId}
          />
        </>
      )}
    </section>
  );
}

const NO_NODES: readonly string[] = [];
