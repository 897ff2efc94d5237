import { useCallback, useMemo, useState } from "react";
import { useQuery } from "../api/use-query.js";
import { AssistantGraphDocument, AssistantSubgraphsDocument } from "../generated/graphql.js";
import { NO_ACTIVITY, xrayDepthFor, type NodeActivity } from "../lib/node-activity.js";
import { ErrorBanner, Loading } from "./feedback.js";
import { GraphView, type Breakpoints } from "./graph-view.js";

/**
 * An assistant's graph, fetched over GraphQL (Assistant.graphDrawing) at the xray depth its
 * expanded subgraphs need. "Expand all" is LangGraph's xray: every subgraph, every level.
 */
export function GraphPanel({
  assistantId,
  activity = NO_ACTIVITY,
  height,
  breakpoints,
  onBreakpoint,
}: {
  assistantId: string;
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
        <GraphView drawing={graph.data.assistant.graphDrawing} activity={activity} expanded={expanded} onToggleSubgraph={toggle} subgraphNodes={subgraphNodes} height={height} breakpoints={breakpoints} onBreakpoint={onBreakpoint} />
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
      </ul>
    </section>
  );
}
