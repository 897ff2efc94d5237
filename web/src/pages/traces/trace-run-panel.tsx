import { useQuery } from "../../api/use-query.js";
import { ErrorBanner, Loading, StatusBadge } from "../../components/feedback.js";
import { JsonView } from "../../components/json-view.js";
import { TraceRunDetailDocument } from "../../generated/graphql.js";
import { formatDateTime, formatLatency } from "../../lib/format.js";
import { hasLangChainJson, readableLangChainJson } from "../../lib/langchain-json.js";
import { RenderedMessageView } from "./rendered-message.js";
import { RunFeedback } from "./run-feedback.js";
import { UsageBreakdown } from "./usage-breakdown.js";

/** One run of a trace: timings, token and cost breakdown, rendered messages, feedback, raw inputs and outputs. */
export function TraceRunPanel({ traceRunId }: { traceRunId: string }) {
  const detail = useQuery(TraceRunDetailDocument, { traceRunId });
  const run = detail.data?.traceRun;
  if (!run) {
    return (
      <section className="panel trace-run-panel">{detail.isLoading ? <Loading /> : <ErrorBanner error={detail.error} onRetry={detail.refetch} />}</section>
    );
  }
  const rendered = run.rendered;
  return (
    <section className="panel trace-run-panel" aria-labelledby="trace-run-title" data-testid="trace-run-panel">
      <header className="trace-run-header">
        <h2 className="panel-title" id="trace-run-title">
          {run.name ?? "(unnamed)"}
        </h2>
        <StatusBadge status={run.status} />
        <span className={`run-type run-type-${run.runType ?? "other"}`}>{run.runType ?? "run"}</span>
        {run.modelName && (
          <span className="chip">
            {run.provider ? `${run.provider} / ` : ""}
            {run.modelName}
          </span>
        )}
      </header>
      <dl className="facts facts-inline">
        <dt>Started</dt>
        <dd>{formatDateTime(run.startTime)}</dd>
        <dt>Latency</dt>
        <dd>{formatLatency(run.latencyMs)}</dd>
        {run.timeToFirstTokenMs != null && (
          <>
            <dt>First token</dt>
            <dd>{formatLatency(run.timeToFirstTokenMs)}</dd>
          </>
        )}
        {run.tags.length > 0 && (
          <>
            <dt>Tags</dt>
            <dd>{run.tags.join(", ")}</dd>
          </>
        )}
      </dl>
      {run.status === "interrupted" ? <InterruptNote values={run.interrupts} /> : run.error && <ErrorBanner error={run.error} />}
      {(run.usage || run.cost) && <UsageBreakdown usage={run.usage ?? null} cost={run.cost ?? null} />}
      {rendered ? (
        <div className="rendered" data-testid="rendered-messages">
          <h3 className="subheading">Input messages</h3>
          {rendered.inputMessages.map((message, index) => (
            <RenderedMessageView key={index} message={message} />
          ))}
          <h3 className="subheading">Output</h3>
          {rendered.outputMessages.length === 0 && <p className="muted">No output messages.</p>}
          {rendered.outputMessages.map((message, index) => (
            <RenderedMessageView key={index} message={message} />
          ))}
          {rendered.format === "UNRECOGNIZED" && <p className="muted">The messages were in a format Hangar does not recognise.</p>}
        </div>
      ) : (
        <ReadableInputsAndOutputs inputs={run.inputs} outputs={run.outputs} />
      )}
      {[...run.warnings, ...(rendered?.warnings ?? [])].length > 0 && (
        <div className="banner banner-warning">
          <strong>Stored with warnings:</strong>
          <ul>
            {[...new Set([...run.warnings, ...(rendered?.warnings ?? [])])].map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </div>
      )}
      <RunFeedback traceRunId={run.traceRunId} feedback={run.feedback} onChanged={detail.refetch} />
      <details className="raw">
        <summary>Raw inputs</summary>
        <JsonView value={run.inputs} label="Raw inputs" />
      </details>
      <details className="raw">
        <summary>Raw outputs</summary>
        <JsonView value={run.outputs} label="Raw outputs" />
      </details>
    </section>
  );
}

/** A node stopped by interrupt(): waiting for an answer, not failed, so no error and no stack. */
function InterruptNote({ values }: { values: unknown }) {
  return (
    <div className="banner banner-warning" role="status" data-testid="interrupt-note">
      <span>Interrupted: the node called interrupt() and the run waits for an answer (resume it from the thread or the Test page).</span>
      {Array.isArray(values) && values.length > 0 && <JsonView value={values} label="Interrupt values" compact />}
    </div>
  );
}

/**
 * A chain's or tool's inputs and outputs, with LangChain-serialized objects (messages above all)
 * shown as what they stand for; exactly as stored under "Raw inputs" / "Raw outputs".
 */
function ReadableInputsAndOutputs({ inputs, outputs }: { inputs: unknown; outputs: unknown }) {
  const isSerialized = hasLangChainJson(inputs) || hasLangChainJson(outputs);
  return (
    <div className="readable-io" data-testid="readable-io">
      <h3 className="subheading">Inputs</h3>
      <JsonView value={readableLangChainJson(inputs ?? null)} label="Inputs" />
      <h3 className="subheading">Outputs</h3>
      <JsonView value={readableLangChainJson(outputs ?? null)} label="Outputs" />
      {isSerialized && <p className="muted small">LangChain objects are shown by type and fields; the raw JSON is below.</p>}
    </div>
  );
}
