import { useEffect, useRef, useState, type MouseEvent as ReactMouseEvent, type PointerEvent as ReactPointerEvent } from "react";
import type { TraceTreeQuery } from "../../generated/graphql.js";
import { formatLatency, formatTokens, formatUsd } from "../../lib/format.js";
import {
  barInWindow,
  FULL_WINDOW,
  isFullWindow,
  panWindow,
  timelineTicks,
  zoomWindow,
  type TimelineWindow,
} from "../../lib/timeline-zoom.js";
import type { TraceTreeRow } from "../../lib/trace-tree.js";

type TraceRunNode = TraceTreeQuery["trace"]["runs"]["edges"][number]["node"];

interface TraceWaterfallProps {
  rows: TraceTreeRow<TraceRunNode>[];
  /** The whole trace's duration: the timeline's 0..1 in milliseconds. */
  spanMs: number;
  selectedId: string | null;
  onSelect: (id: string) => void;
}

const ZOOM_STEP = 2;
/** A drag shorter than this is a click on the row, not a pan. */
const DRAG_THRESHOLD_PX = 4;

/**
 * The run tree, indented by depth, each run with a bar on the trace's timeline. The timeline
 * zooms (buttons, ctrl/⌘ + wheel or a trackpad pinch, around the pointer) and pans (drag it, or
 * scroll sideways); the axis shows the times of the visible part.
 */
export function TraceWaterfall({ rows, spanMs, selectedId, onSelect }: TraceWaterfallProps) {
  const [window, setWindow] = useState<TimelineWindow>(FULL_WINDOW);
  const listRef = useRef<HTMLOListElement>(null);
  const drag = useRef<{ x: number; width: number; from: TimelineWindow; moved: boolean } | null>(null);
  const ticks = timelineTicks(window, spanMs);

  // React's onWheel is passive, so it cannot keep the page from zooming or scrolling sideways.
  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const onWheel = (event: WheelEvent) => {
      const track = timelineUnder(event.target);
      if (!track) return;
      const rect = track.getBoundingClientRect();
      if (event.ctrlKey || event.metaKey) {
        event.preventDefault();
        const anchor = (event.clientX - rect.left) / rect.width;
        setWindow((current) => zoomWindow(current, Math.exp(-event.deltaY / 200), anchor));
      } else if (Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
        event.preventDefault();
        setWindow((current) => panWindow(current, event.deltaX / rect.width));
      }
    };
    list.addEventListener("wheel", onWheel, { passive: false });
    return () => list.removeEventListener("wheel", onWheel);
  }, []);

  const onPointerDown = (event: ReactPointerEvent<HTMLOListElement>) => {
    drag.current = null;
    const track = timelineUnder(event.target);
    if (!track || event.button !== 0) return;
    drag.current = { x: event.clientX, width: track.getBoundingClientRect().width, from: window, moved: false };
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLOListElement>) => {
    const current = drag.current;
    if (!current) return;
    const dx = event.clientX - current.x;
    if (!current.moved && Math.abs(dx) < DRAG_THRESHOLD_PX) return;
    if (!current.moved) event.currentTarget.setPointerCapture(event.pointerId);
    current.moved = true;
    setWindow(panWindow(current.from, -dx / current.width));
  };
  const endDrag = (event: ReactPointerEvent<HTMLOListElement>) => {
    if (drag.current?.moved && event.currentTarget.hasPointerCapture(event.pointerId)) event.currentTarget.releasePointerCapture(event.pointerId);
    // A drag's pointerup is followed by a click on the row it ended on: that click is the pan's.
    if (!drag.current?.moved) drag.current = null;
  };
  const onClickCapture = (event: ReactMouseEvent) => {
    if (!drag.current?.moved) return;
    drag.current = null;
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <section className="waterfall-panel" aria-label="Timeline">
      <div className="waterfall-toolbar">
        <span className="muted small" data-testid="waterfall-window">
          {isFullWindow(window)
            ? `Whole trace · ${formatLatency(spanMs)}`
            : `${formatLatency(window.start * spanMs)} – ${formatLatency(window.end * spanMs)} of ${formatLatency(spanMs)}`}
        </span>
        <div className="waterfall-zoom" role="group" aria-label="Zoom the timeline">
          <button type="button" className="button button-small" aria-label="Zoom in" onClick={() => setWindow((current) => zoomWindow(current, ZOOM_STEP))}>
            +
          </button>
          <button type="button" className="button button-small" aria-label="Zoom out" onClick={() => setWindow((current) => zoomWindow(current, 1 / ZOOM_STEP))}>
            −
          </button>
          <button type="button" className="button button-small" disabled={isFullWindow(window)} onClick={() => setWindow(FULL_WINDOW)}>
            Reset
          </button>
        </div>
      </div>
      <ol
        ref={listRef}
        className={`waterfall${isFullWindow(window) ? "" : " waterfall-zoomed"}`}
        aria-label="Runs of this trace"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onClickCapture={onClickCapture}
      >
        <li className="waterfall-row waterfall-head">
          <span>Run</span>
          <span className="waterfall-axis" data-timeline aria-hidden="true">
            {ticks.map((tick) => (
              <span key={tick.ms} className="waterfall-tick" style={{ left: `${tick.at * 100}%` }}>
                {tick.ms === 0 ? "0" : formatLatency(tick.ms)}
              </span>
            ))}
          </span>
          <span className="waterfall-figure">Latency</span>
          <span className="waterfall-figure">Tokens</span>
          <span className="waterfall-figure">Cost</span>
        </li>
        {rows.map(({ run, depth, offset, width }) => {
          const bar = barInWindow(window, offset, width);
          const firstToken = run.timeToFirstTokenMs == null ? null : barInWindow(window, offset + run.timeToFirstTokenMs / spanMs, 0).left;
          return (
            <li key={run.traceRunId}>
              <button
                type="button"
                className={`waterfall-row${run.status === "error" ? " waterfall-error" : ""}`}
                aria-current={run.traceRunId === selectedId ? "true" : undefined}
                onClick={() => onSelect(run.traceRunId)}
              >
                <span className="waterfall-name" style={{ paddingLeft: `${depth * 14}px` }} title={run.name ?? undefined}>
                  <span className={`run-type run-type-${run.runType ?? "other"}`}>{run.runType ?? "run"}</span>
                  <span className="waterfall-name-text">{run.name ?? "(unnamed)"}</span>
                </span>
                <span className="waterfall-bar-track" data-timeline aria-hidden="true">
                  {ticks.map((tick) => (
                    <span key={tick.ms} className="waterfall-gridline" style={{ left: `${tick.at * 100}%` }} />
                  ))}
                  <span className="waterfall-bar" style={{ left: `${bar.left * 100}%`, width: `${bar.width * 100}%` }} />
                  {firstToken !== null && (
                    <span className="waterfall-first-token" style={{ left: `${firstToken * 100}%` }} title={`First token after ${formatLatency(run.timeToFirstTokenMs)}`} />
                  )}
                </span>
                <span className="waterfall-figure">{formatLatency(run.latencyMs)}</span>
                <span className="waterfall-figure">{run.usage ? formatTokens(run.usage.totalTokens) : ""}</span>
                <span className="waterfall-figure">{run.cost ? formatUsd(run.cost.totalCost) : ""}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** The timeline cell (a row's track or the axis) an event happened in, if any. */
function timelineUnder(target: EventTarget | null): HTMLElement | null {
  return target instanceof Element ? target.closest<HTMLElement>("[data-timeline]") : null;
}
