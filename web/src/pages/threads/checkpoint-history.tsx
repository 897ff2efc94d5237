import { useEffect, useRef, useState } from "react";
import { useQuery } from "../../api/use-query.js";
import { ErrorBanner, Loading } from "../../components/feedback.js";
import { JsonView } from "../../components/json-view.js";
import { TimeAgo } from "../../components/time-ago.js";
import { ThreadHistoryDocument } from "../../generated/graphql.js";
import { tailId } from "../../lib/format.js";

const PAGE = 20;

/** The thread's checkpoints, newest first; open one to see the state it saved. */
export function CheckpointHistory({ threadId, latestCheckpointId }: { threadId: string; latestCheckpointId: string | null }) {
  const [limit, setLimit] = useState(PAGE);
  const history = useQuery(ThreadHistoryDocument, { threadId, limit });
  const shownLatest = useRef(latestCheckpointId);
  const refetch = history.refetch;
  // Re-read when the thread moves on to a new checkpoint (a run wrote one).
  useEffect(() => {
    if (shownLatest.current === latestCheckpointId) return;
    shownLatest.current = latestCheckpointId;
    refetch();
  }, [latestCheckpointId, refetch]);
  const [openId, setOpenId] = useState<string | null>(null);
  const checkpoints = history.data?.thread.history ?? [];
  return (
    <section className="panel" aria-labelledby="history-title">
      <h2 className="panel-title" id="history-title">
        Checkpoints
      </h2>
      <ErrorBanner error={history.error} onRetry={history.refetch} />
      {!history.data && history.isLoading && <Loading />}
      {history.data && checkpoints.length === 0 && <p className="muted">No checkpoints yet.</p>}
      <ol className="checkpoint-list">
        {checkpoints.map((checkpoint) => {
          const id = checkpoint.checkpointId ?? "";
          const isOpen = openId === id;
          const step = checkpoint.metadata?.step;
          const source = checkpoint.metadata?.source;
          return (
            <li key={id} className="checkpoint">
              <button type="button" className="checkpoint-summary" aria-expanded={isOpen} onClick={() => setOpenId(isOpen ? null : id)}>
                <code title={id}>{tailId(id)}</code>
                <span>step {String(step ?? "?")}</span>
                <span className="chip">{String(source ?? "—")}</span>
                <span className="muted">next: {checkpoint.next.length ? checkpoint.next.join(", ") : "—"}</span>
                <TimeAgo iso={checkpoint.createdAt} />
              </button>
              {isOpen && <JsonView value={checkpoint.values} label={`Values at checkpoint ${id}`} />}
            </li>
          );
        })}
      </ol>
      {checkpoints.length === limit && (
        <button type="button" className="button load-more" onClick={() => setLimit((value) => value + PAGE)}>
          Show older checkpoints
        </button>
      )}
    </section>
  );
}
