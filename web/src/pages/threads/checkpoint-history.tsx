import { useEffect, useRef, useState } from "react";
import { execute } from "../../api/graphql-client.js";
import { useAction, useQuery } from "../../api/use-query.js";
import { DiffList } from "../../components/diff-list.js";
import { ErrorBanner, Loading } from "../../components/feedback.js";
import { JsonView } from "../../components/json-view.js";
import { TimeAgo } from "../../components/time-ago.js";
import { ContinueThreadDocument, ThreadHistoryDocument, type StateSnapshotFragment } from "../../generated/graphql.js";
import { branchCount, timelineRows, type CheckpointLike, type TimelineRow } from "../../lib/checkpoint-timeline.js";
import { tailId } from "../../lib/format.js";
import { diffJson } from "../../lib/json-diff.js";
import { CheckpointEditor } from "./checkpoint-editor.js";

const PAGE = 20;

/**
 * The thread's checkpoint timeline, newest first, a page at a time (each older page asks for the
 * checkpoints before the oldest shown, so a long thread is never read whole). Each checkpoint
 * shows its step, the node that wrote it and what it changed; from any of them the state can be
 * edited and continued, or replayed as it is (both fork a new branch); two can be compared.
 */
export function CheckpointHistory({
  threadId,
  assistantId,
  latestCheckpointId,
  isBusy,
  onContinued,
}: {
  threadId: string;
  /** The assistant runs continue with; null: the thread names none, so no edit or replay. */
  assistantId: string | null;
  latestCheckpointId: string | null;
  isBusy: boolean;
  /** A run started from a checkpoint (edit or replay). */
  onContinued: (runId: string) => void;
}) {
  const firstPage = useQuery(ThreadHistoryDocument, { threadId, limit: PAGE });
  const [olderPages, setOlderPages] = useState<StateSnapshotFragment[]>([]);
  const [hasOlder, setHasOlder] = useState(true);
  const shownLatest = useRef(latestCheckpointId);
  const refetch = firstPage.refetch;
  // Re-read when the thread moves on to a new checkpoint (a run wrote one).
  useEffect(() => {
    if (shownLatest.current === latestCheckpointId) return;
    shownLatest.current = latestCheckpointId;
    setOlderPages([]);
    setHasOlder(true);
    refetch();
  }, [latestCheckpointId, refetch]);

  const checkpoints = [...(firstPage.data?.thread.history ?? []), ...olderPages];
  const loadOlder = useAction(async () => {
    const before = checkpoints.at(-1)?.checkpointId;
    if (!before) return;
    const { thread } = await execute(ThreadHistoryDocument, { threadId, limit: PAGE, before });
    setOlderPages((previous) => [...previous, ...thread.history]);
    setHasOlder(thread.history.length === PAGE);
  });
  const replay = useAction(async (checkpointId: string) => {
    if (!assistantId) return;
    const { continueThread } = await execute(ContinueThreadDocument, {
      input: { threadId, assistantId, checkpointId, streamMode: ["VALUES", "UPDATES", "TASKS"] },
    });
    onContinued(continueThread.run.runId);
  });
  const [openId, setOpenId] = useState<string | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [compared, setCompared] = useState<string[]>([]);
  const rows = timelineRows(checkpoints);
  const branches = branchCount(rows);
  const firstPageFull = (firstPage.data?.thread.history.length ?? 0) === PAGE;
  const canContinue = assistantId !== null && !isBusy;
  const toggleCompared = (id: string) =>
    setCompared((previous) => (previous.includes(id) ? previous.filter((item) => item !== id) : [...previous, id].slice(-2)));

  return (
    <section className="panel" aria-labelledby="history-title">
      <h2 className="panel-title" id="history-title">
        Checkpoints
      </h2>
      <p className="muted small" data-testid="branch-count">
        {checkpoints.length} loaded · {branches} {branches === 1 ? "branch" : "branches"}
      </p>
      <ErrorBanner error={firstPage.error ?? loadOlder.error ?? replay.error} onRetry={firstPage.refetch} />
      {!firstPage.data && firstPage.isLoading && <Loading />}
      {firstPage.data && checkpoints.length === 0 && <p className="muted">No checkpoints yet.</p>}
      {compared.length === 2 && <Comparison checkpoints={checkpoints} ids={compared} onClose={() => setCompared([])} />}
      <ol className="checkpoint-list" aria-label="Checkpoint timeline">
        {rows.map((row, index) => (
          <li
            key={row.id}
            className={`checkpoint${row.startsBranch ? " checkpoint-branch" : ""}`}
            data-checkpoint-id={row.id}
            data-step={row.step ?? ""}
            data-tip={row.isTip}
            data-branch={row.branch + 1}
          >
            {branches > 1 && <BranchGutter row={row} previous={rows[index - 1]} next={rows[index + 1]} laneCount={branches} />}
            <div className="checkpoint-body">
            <div className="checkpoint-row">
              <button type="button" className="checkpoint-summary" aria-expanded={openId === row.id} onClick={() => setOpenId(openId === row.id ? null : row.id)}>
                <code title={row.id}>{tailId(row.id)}</code>
                <span>step {row.step ?? "?"}</span>
                <span className="chip" data-testid="checkpoint-node">
                  {row.writers.join(", ") || row.source || "—"}
                </span>
                <span className="muted checkpoint-changes">{changeSummary(row)}</span>
                <TimeAgo iso={row.checkpoint.createdAt ?? null} />
              </button>
              <label className="checkbox checkpoint-compare">
                <input type="checkbox" aria-label={`Compare checkpoint ${row.id}`} checked={compared.includes(row.id)} onChange={() => toggleCompared(row.id)} />
                compare
              </label>
            </div>
            {branches > 1 && (row.isTip || row.forkedFrom) && (
              <p className="checkpoint-branch-info small">
                <span className="branch-name" style={{ color: laneColor(row.branch) }}>
                  branch {row.branch + 1}
                  {row.isTip ? " · tip" : ""}
                </span>
                {row.forkedFrom && (
                  <span className="muted">
                    {" "}
                    · forked from <code title={row.forkedFrom}>{tailId(row.forkedFrom)}</code>
                  </span>
                )}
              </p>
            )}
            {openId === row.id && (
              <div className="checkpoint-detail">
                {row.changes && row.changes.length > 0 && <DiffList entries={row.changes} label={`Changes at checkpoint ${row.id}`} />}
                <p className="muted small">next: {row.checkpoint.next.length ? row.checkpoint.next.join(", ") : "— (finished)"}</p>
                <JsonView value={row.checkpoint.values} label={`Values at checkpoint ${row.id}`} />
                <div className="form-actions">
                  <button type="button" className="button" disabled={!canContinue} onClick={() => setEditingId(row.id)}>
                    Edit state
                  </button>
                  <button type="button" className="button" disabled={!canContinue || replay.isPending} onClick={() => void replay.run(row.id)}>
                    Replay from here
                  </button>
                </div>
                {editingId === row.id && assistantId && (
                  <CheckpointEditor
                    threadId={threadId}
                    assistantId={assistantId}
                    checkpointId={row.id}
                    values={row.checkpoint.values}
                    defaultAsNode={row.writers.find((writer) => writer !== "input" && writer !== "update") ?? ""}
                    onCancel={() => setEditingId(null)}
                    onDone={(runId) => {
                      setEditingId(null);
                      onContinued(runId);
                    }}
                  />
                )}
              </div>
            )}
            </div>
          </li>
        ))}
      </ol>
      {firstPageFull && hasOlder && (
        <button type="button" className="button load-more" disabled={loadOlder.isPending} onClick={() => void loadOlder.run()}>
          Show older checkpoints
        </button>
      )}
    </section>
  );
}

function changeSummary(row: TimelineRow<StateSnapshotFragment>): string {
  if (row.changes === null) return "";
  if (row.changes.length === 0) return "no change";
  const paths = row.changes.map((entry) => entry.path);
  return paths.length > 3 ? `${paths.slice(0, 3).join(", ")} +${paths.length - 3}` : paths.join(", ");
}

/** Two checkpoints side by side as a diff (older → newer), e.g. the tips of two branches. */
function Comparison({ checkpoints, ids, onClose }: { checkpoints: StateSnapshotFragment[]; ids: string[]; onClose: () => void }) {
  const [newer, older] = ids
    .map((id) => checkpoints.find((checkpoint) => checkpoint.checkpointId === id))
    .filter((checkpoint): checkpoint is StateSnapshotFragment => checkpoint !== undefined)
    .sort((a, b) => String(b.checkpointId).localeCompare(String(a.checkpointId)));
  if (!newer || !older) return null;
  const entries = diffJson(older.values, newer.values);
  return (
    <div className="checkpoint-comparison" data-testid="checkpoint-comparison">
      <div className="panel-title-row">
        <h3 className="subheading">
          {tailId(older.checkpointId ?? "")} → {tailId(newer.checkpointId ?? "")}
        </h3>
        <button type="button" className="link-button" onClick={onClose}>
          Close
        </button>
      </div>
      {entries.length === 0 ? <p className="muted">Same values.</p> : <DiffList entries={entries} label="Differences between the two checkpoints" />}
    </div>
  );
}

const LANE_WIDTH = 12;
/** Where a row's dot sits, from the row's top: the middle of its summary line. */
const DOT_Y = 15;

function laneColor(branch: number): string {
  return `var(--series-${branch % 8})`;
}

/**
 * The branch lanes beside a checkpoint, as git draws history: a line per branch from its tip down
 * to the checkpoint it forked from (joined to that one's lane), a dot on the row's own branch.
 */
function BranchGutter({
  row,
  previous,
  next,
  laneCount,
}: {
  row: TimelineRow<CheckpointLike>;
  previous: TimelineRow<CheckpointLike> | undefined;
  next: TimelineRow<CheckpointLike> | undefined;
  laneCount: number;
}) {
  const x = (lane: number) => lane * LANE_WIDTH + LANE_WIDTH / 2;
  return (
    <span className="branch-gutter" aria-hidden="true" style={{ width: laneCount * LANE_WIDTH }}>
      {row.lanes.map((lane) => {
        const starts = !previous?.lanes.includes(lane);
        const ends = !next?.lanes.includes(lane);
        return (
          <span
            key={lane}
            className="branch-line"
            style={{ left: x(lane) - 1, top: starts ? DOT_Y : 0, bottom: ends ? `calc(100% - ${DOT_Y}px)` : 0, background: laneColor(lane) }}
          />
        );
      })}
      {row.lanes
        .filter((lane) => lane !== row.branch && !next?.lanes.includes(lane))
        .map((lane) => (
          // A branch that forked here: its lane turns into this checkpoint's.
          <span
            key={`join-${lane}`}
            className="branch-join"
            style={{ left: Math.min(x(lane), x(row.branch)), width: Math.abs(x(lane) - x(row.branch)), top: DOT_Y - 1, background: laneColor(lane) }}
          />
        ))}
      <span className="branch-dot" style={{ left: x(row.branch) - 4, top: DOT_Y - 4, background: laneColor(row.branch) }} />
    </span>
  );
}
