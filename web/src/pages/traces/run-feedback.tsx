import type { TraceRunDetailQuery } from "../../generated/graphql.js";
import { formatDateTime } from "../../lib/format.js";

type Feedback = NonNullable<TraceRunDetailQuery["traceRun"]>["feedback"][number];

/** Shown briefly in a cell: strings as they are, anything else as compact JSON. */
function shortJson(value: unknown): string {
  if (value === null || value === undefined) return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A run's feedback (LangSmith's feedback API, or GraphQL's createTraceFeedback), oldest first. Read-only. */
export function RunFeedback({ feedback }: { feedback: readonly Feedback[] }) {
  return (
    <div className="run-feedback">
      <h3 className="subheading">Feedback</h3>
      {feedback.length === 0 ? (
        <p className="muted">No feedback on this run.</p>
      ) : (
        <div className="table-scroll">
          <table className="table table-compact" data-testid="run-feedback">
            <thead>
              <tr>
                <th>Key</th>
                <th className="numeric">Score</th>
                <th>Value</th>
                <th>Comment</th>
                <th>Correction</th>
              </tr>
            </thead>
            <tbody>
              {feedback.map((item) => (
                <tr key={item.feedbackId}>
                  <td title={`Given ${formatDateTime(item.createdAt)}`}>
                    {item.key}
                    <div className="muted">{item.sourceType}</div>
                  </td>
                  <td className="numeric">{item.score ?? "—"}</td>
                  <td>{shortJson(item.value)}</td>
                  <td>{item.comment ?? "—"}</td>
                  <td>{shortJson(item.correction)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
