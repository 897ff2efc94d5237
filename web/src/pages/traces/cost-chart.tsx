import { useElementWidth } from "../../components/use-element-width.js";
import { buildCostSeries, niceScale, type UsageRow } from "../../lib/cost-series.js";
import { formatTokens, formatUsd } from "../../lib/format.js";

const HEIGHT = 220;
const MARGIN = { top: 12, right: 12, bottom: 28 };
// Axis labels are 11px tabular digits: about 6.6px per character.
const LABEL_CHAR_WIDTH = 6.6;
// Series colours are CSS variables, so light and dark themes each get readable ones.
const SERIES_COLOURS = 8;

interface CostChartProps {
  rows: UsageRow[];
  from: Date;
  to: Date;
}

/** Cost per UTC day, stacked by model, as a hand-drawn SVG with a legend and totals. */
export function CostChart({ rows, from, to }: CostChartProps) {
  // Drawn at the panel's pixel width, so text and bars keep their size whatever the window.
  const [frame, width] = useElementWidth<HTMLDivElement>(760);
  const series = buildCostSeries(rows, from, to);
  const { max, ticks } = niceScale(series.maxDayCost);
  const tickLabels = ticks.map((tick) => formatUsd(tick));
  const left = Math.ceil(Math.max(...tickLabels.map((label) => label.length)) * LABEL_CHAR_WIDTH) + 14;
  const plotWidth = width - left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const slot = plotWidth / Math.max(1, series.days.length);
  const barWidth = Math.max(2, Math.min(36, slot * 0.7));
  const y = (value: number) => MARGIN.top + plotHeight - (value / max) * plotHeight;
  const labelEvery = Math.ceil(series.days.length / 10);
  const colourOf = (index: number) => `var(--series-${index % SERIES_COLOURS})`;

  return (
    <section className="panel chart-panel" aria-labelledby="cost-chart-title" data-testid="cost-chart">
      <div className="chart-header">
        <h2 className="panel-title" id="cost-chart-title">
          Cost over time, by model
        </h2>
        <dl className="chart-totals">
          <div>
            <dt>Total cost</dt>
            <dd data-testid="total-cost">{formatUsd(series.totalCost)}</dd>
          </div>
          <div>
            <dt>Tokens</dt>
            <dd>{formatTokens(series.totalTokens)}</dd>
          </div>
          <div>
            <dt>Model calls</dt>
            <dd>{formatTokens(series.callCount)}</dd>
          </div>
        </dl>
      </div>
      <div ref={frame} className="chart-frame">
        <svg
          className="chart"
          viewBox={`0 0 ${width} ${HEIGHT}`}
          role="img"
          aria-label={`Cost per day from ${series.days[0] ?? ""} to ${series.days.at(-1) ?? ""}: ${formatUsd(series.totalCost)} in total`}
        >
          {ticks.map((tick, index) => (
            <g key={tick}>
              <line className="chart-grid" x1={left} x2={width - MARGIN.right} y1={y(tick)} y2={y(tick)} />
              <text className="chart-axis" x={left - 8} y={y(tick)} dy="0.32em" textAnchor="end">
                {tickLabels[index]}
              </text>
            </g>
          ))}
          {series.days.map((day, dayIndex) => {
            const x = left + slot * dayIndex + (slot - barWidth) / 2;
            let stacked = 0;
            return (
              <g key={day}>
                {series.models.map((model, modelIndex) => {
                  const cost = series.costs[dayIndex][modelIndex];
                  if (cost <= 0) return null;
                  const top = y(stacked + cost);
                  const height = y(stacked) - top;
                  stacked += cost;
                  return (
                    <rect key={model} x={x} y={top} width={barWidth} height={Math.max(1, height)} rx={2} fill={colourOf(modelIndex)}>
                      <title>{`${day} · ${model}: ${formatUsd(cost)}`}</title>
                    </rect>
                  );
                })}
                {dayIndex % labelEvery === 0 && (
                  <text className="chart-axis" x={x + barWidth / 2} y={HEIGHT - 8} textAnchor="middle">
                    {day.slice(5)}
                  </text>
                )}
              </g>
            );
          })}
          <line className="chart-baseline" x1={left} x2={width - MARGIN.right} y1={y(0)} y2={y(0)} />
        </svg>
      </div>
      {series.models.length === 0 ? (
        <p className="muted">No model calls in this period.</p>
      ) : (
        <ul className="legend" aria-label="Cost by model">
          {series.models.map((model, index) => (
            <li key={model}>
              <span className="legend-swatch" style={{ background: colourOf(index) }} aria-hidden="true" />
              {model} <span className="muted">{formatUsd(series.costByModel[model])}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
