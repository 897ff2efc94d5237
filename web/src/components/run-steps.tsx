import { useState } from "react";
import { countOf, formatLatency } from "../lib/format.js";
import { runsOfNode, type NodeRun, type RunStep } from "../lib/run-steps.js";
import { ErrorBanner } from "./feedback.js";
import { JsonView } from "./json-view.js";
import { useThreadHistory } from "./use-thread-history.js";

/**
 * Below the graph: a scrubber over the thread's steps (step k of n; the graph highlights the
 * nodes of step k) and what the shown nodes did: input, output and duration at each step they
 * ran. A clicked node (`selectedNode`) shows all of its runs instead of one step.
 */
export function RunStepsPanel({
  steps,
  position,
  onPosition,
  selectedNode,
  onClearNode,
  hasEarlier,
  onLoadEarlier,
  threadId,
}: {
  steps: readonly RunStep[];
  /** 0-based index into steps. */
  position: number;
  onPosition: (index: number) => void;
  selectedNode: string | null;
  onClearNode: () => void;
  hasEarlier: boolean;
  onLoadEarlier: () => void;
  threadId: string;
}) {
  if (steps.length === 0) {
    return <p className="muted small run-steps-empty">No steps yet: run the graph to step through it.</p>;
  }
  const current = steps[Math.min(position, steps.length - 1)]!;
  const nodeRuns = selectedNode ? runsOfNode(steps, selectedNode) : null;
  return (
    <div className="run-steps" aria-label="Steps">
      <div className="step-scrubber">
        <button type="button" className="button button-small" aria-label="Previous step" disabled={position === 0} onClick={() => onPosition(position - 1)}>
          ‹
        </button>
        <input
          type="range"
          min={1}
          max={steps.length}
          value={position + 1}
          aria-label="Step"
          aria-valuetext={`Step ${position + 1} of ${steps.length}`}
          onChange={(event) => onPosition(Number(event.target.value) - 1)}
        />
        <button
          type="button"
          className="button button-small"
          aria-label="Next step"
          disabled={position >= steps.length - 1}
          onClick={() => onPosition(position + 1)}
        >
          ›
        </button>
        <span className="step-position" data-testid="step-position">
          Step {position + 1} of {steps.length}
        </span>
        {hasEarlier && (
          <button type="button" className="link-button small" onClick={onLoadEarlier}>
            Load earlier steps
          </button>
        )}
      </div>
      {nodeRuns ? (
        <section className="node-runs" aria-label={`Runs of ${selectedNode}`}>
          <header className="node-runs-header">
            <strong>
              <code>{selectedNode}</code> ran {nodeRuns.length === 1 ? "once" : countOf(nodeRuns.length, "time")}
            </strong>
            <button type="button" className="link-button small" onClick={onClearNode}>
              Back to step {position + 1}
            </button>
          </header>
          {nodeRuns.length === 0 && <p className="muted small">Not in the loaded steps.</p>}
          {nodeRuns.map((run) => (
            <NodeRunCard key={run.taskId} run={run} threadId={threadId} />
          ))}
        </section>
      ) : (
        <section className="node-runs" aria-label={`Step ${position + 1}`}>
          <header className="node-runs-header">
            <strong>
              {current.step === null ? "Step" : `LangGraph step ${current.step}`}: {current.nodes.map((run) => run.node).join(", ")}
            </strong>
            <span className="muted small">{current.durationMs === null ? "running" : formatLatency(current.durationMs)}</span>
          </header>
          {current.nodes.map((run) => (
            <NodeRunCard key={run.taskId} run={run} threadId={threadId} />
          ))}
        </section>
      )}
    </div>
  );
}

/** One node at one step: its input (the state before the step), its output and duration. */
function NodeRunCard({ run, threadId }: { run: NodeRun; threadId: string }) {
  return (
    <article className="node-run" data-testid="node-run" data-node={run.node} data-step={run.step ?? undefined}>
      <header className="node-run-header">
        <code>{run.node}</code>
        <span className="muted small">
          step {run.step ?? "?"} · {run.isPending ? (run.hasInterrupts ? "waiting on interrupt" : "not finished") : formatLatency(run.durationMs)}
        </span>
      </header>
      {run.error && <ErrorBanner error={run.error} />}
      <details className="node-run-part">
        <summary>Input (state before the step)</summary>
        <JsonView value={run.input} label={`Input of ${run.node} at step ${run.step ?? "?"}`} compact />
      </details>
      <details className="node-run-part" open>
        <summary>Output (the update it wrote)</summary>
        {run.isPending && run.output === null ? (
          <p className="muted small">None yet.</p>
        ) : (
          <JsonView value={run.output} label={`Output of ${run.node} at step ${run.step ?? "?"}`} compact />
        )}
      </details>
      {run.checkpointNs && <SubgraphSteps threadId={threadId} checkpointNs={run.checkpointNs} node={run.node} />}
    </article>
  );
}

/** A subgraph node's own steps, read from its namespace's history when opened. */
function SubgraphSteps({ threadId, checkpointNs, node }: { threadId: string; checkpointNs: string; node: string }) {
  const [isOpen, setOpen] = useState(false);
  return (
    <details className="node-run-part subgraph-steps" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Subgraph steps of {node}</summary>
      {isOpen && <SubgraphStepList threadId={threadId} checkpointNs={checkpointNs} />}
    </details>
  );
}

function SubgraphStepList({ threadId, checkpointNs }: { threadId: string; checkpointNs: string }) {
  const history = useThreadHistory(threadId, checkpointNs, "");
  const runs = history.steps.flatMap((step) => step.nodes);
  return (
    <div className="subgraph-step-list" data-testid="subgraph-steps">
      <ErrorBanner error={history.error} />
      {runs.length === 0 && !history.isLoading && <p className="muted small">No steps recorded.</p>}
      {runs.map((run) => (
        <NodeRunCard key={run.taskId} run={run} threadId={threadId} />
      ))}
      {history.hasEarlier && (
        <button type="button" className="link-button small" onClick={() => void history.loadEarlier()}>
          Load earlier steps
        </button>
      )}
    </div>
  );
}
