import { type FormEvent, useState } from "react";
import { execute } from "../../api/graphql-client.js";
import { useAction } from "../../api/use-query.js";
import { ErrorBanner } from "../../components/feedback.js";
import { CreateTraceFeedbackDocument, DeleteTraceFeedbackDocument, type TraceRunDetailQuery } from "../../generated/graphql.js";
import { formatDateTime } from "../../lib/format.js";

type Feedback = NonNullable<TraceRunDetailQuery["traceRun"]>["feedback"][number];

/** Shown briefly in a cell: strings as they are, anything else as compact JSON. */
function shortJson(value: unknown): string {
  if (value === null || value === undefined) return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * A run's feedback (LangSmith's feedback API, or GraphQL's createTraceFeedback), oldest first, with
 * a form to add one (key, score, comment; source `app`) and a button to delete one. The server
 * checks the input; its refusal is shown as it answered.
 */
export function RunFeedback({ traceRunId, feedback, onChanged }: { traceRunId: string; feedback: readonly Feedback[]; onChanged: () => void }) {
  const [key, setKey] = useState("");
  const [score, setScore] = useState("");
  const [comment, setComment] = useState("");
  const add = useAction(async () => {
    await execute(CreateTraceFeedbackDocument, {
      input: { traceRunId, key: key.trim(), score: score.trim() === "" ? null : Number(score), comment: comment.trim() === "" ? null : comment },
    });
    setKey("");
    setScore("");
    setComment("");
    onChanged();
  });
  const remove = useAction(async (feedbackId: string) => {
    await execute(DeleteTraceFeedbackDocument, { input: { feedbackId } });
    onChanged();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void add.run();
  };

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
                <th>
                  <span className="sr-only">Actions</span>
                </th>
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
                  <td>
                    <button
                      type="button"
                      className="button button-small button-danger-quiet"
                      aria-label={`Delete feedback ${item.key}`}
                      disabled={remove.isPending}
                      onClick={() => void remove.run(item.feedbackId)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form className="feedback-form" aria-label="Add feedback" onSubmit={submit}>
        <input aria-label="Feedback key" placeholder="key" value={key} onChange={(event) => setKey(event.target.value)} required />
        <input aria-label="Score" placeholder="score" type="number" step="any" value={score} onChange={(event) => setScore(event.target.value)} />
        <input aria-label="Comment" placeholder="comment" value={comment} onChange={(event) => setComment(event.target.value)} />
        <button type="submit" className="button button-small" disabled={add.isPending || key.trim() === ""}>
          Add feedback
        </button>
      </form>
      <ErrorBanner error={add.error ?? remove.error} />
    </div>
  );
}
