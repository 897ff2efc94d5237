import { type FormEvent, useState } from "react";
import { execute } from "../../api/graphql-client.js";
import { useAction } from "../../api/use-query.js";
import { ErrorBanner } from "../../components/feedback.js";
import {
  CreateTraceFeedbackDocument,
  DeleteTraceFeedbackDocument,
  UpdateTraceFeedbackDocument,
  type TraceRunDetailQuery,
} from "../../generated/graphql.js";
import { formatDateTime } from "../../lib/format.js";

type Feedback = NonNullable<TraceRunDetailQuery["traceRun"]>["feedback"][number];

/** Shown briefly in a cell: strings as they are, anything else as compact JSON. */
function shortJson(value: unknown): string {
  if (value === null || value === undefined) return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The value field's text: a string as it is, any other JSON value as JSON. */
function valueText(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Typed text back to a value: JSON when it parses (42, true, {"a":1}), else the text itself; empty clears. */
function valueOfText(text: string): unknown {
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A run's feedback (LangSmith's feedback API, or GraphQL's createTraceFeedback), oldest first, with
 * a form to add one (key, score, comment; source `app`), and buttons to edit one (score, value,
 * comment, through updateTraceFeedback) or delete one. The server checks the input; its refusal is
 * shown as it answered.
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
  const [editing, setEditing] = useState<{ feedbackId: string; score: string; value: string; comment: string } | null>(null);
  const save = useAction(async () => {
    if (!editing) return;
    await execute(UpdateTraceFeedbackDocument, {
      input: {
        feedbackId: editing.feedbackId,
        score: editing.score.trim() === "" ? null : Number(editing.score),
        value: valueOfText(editing.value),
        comment: editing.comment.trim() === "" ? null : editing.comment,
      },
    });
    setEditing(null);
    onChanged();
  });
  const startEditing = (item: Feedback) =>
    setEditing({ feedbackId: item.feedbackId, score: item.score === null ? "" : String(item.score), value: valueText(item.value), comment: item.comment ?? "" });
  const submitEdit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };
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
              {feedback.map((item) =>
                editing?.feedbackId === item.feedbackId ? (
                  <tr key={item.feedbackId} className="feedback-editing">
                    <td>{item.key}</td>
                    <td colSpan={5}>
                      <form className="feedback-form" aria-label={`Edit feedback ${item.key}`} onSubmit={submitEdit}>
                        <input
                          aria-label="Score"
                          placeholder="score"
                          type="number"
                          step="any"
                          value={editing.score}
                          onChange={(event) => setEditing({ ...editing, score: event.target.value })}
                        />
                        <input aria-label="Value" placeholder="value" value={editing.value} onChange={(event) => setEditing({ ...editing, value: event.target.value })} />
                        <input
                          aria-label="Comment"
                          placeholder="comment"
                          value={editing.comment}
                          onChange={(event) => setEditing({ ...editing, comment: event.target.value })}
                        />
                        <button type="submit" className="button button-small" disabled={save.isPending}>
                          Save
                        </button>
                        <button type="button" className="button button-small" onClick={() => setEditing(null)}>
                          Cancel
                        </button>
                      </form>
                    </td>
                  </tr>
                ) : (
                  <tr key={item.feedbackId}>
                    <td title={`Given ${formatDateTime(item.createdAt)}`}>
                      {item.key}
                      <div className="muted">{item.sourceType}</div>
                    </td>
                    <td className="numeric">{item.score ?? "—"}</td>
                    <td>{shortJson(item.value)}</td>
                    <td>{item.comment ?? "—"}</td>
                    <td>{shortJson(item.correction)}</td>
                    <td className="feedback-actions">
                      <button type="button" className="button button-small" aria-label={`Edit feedback ${item.key}`} onClick={() => startEditing(item)}>
                        Edit
                      </button>
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
                ),
              )}
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
      <ErrorBanner error={add.error ?? remove.error ?? save.error} />
    </div>
  );
}
