import { sumDecimals } from "./format.js";

/** A usageSummary row grouped by DAY and MODEL, as the chart reads it. */
export interface UsageRow {
  day?: string | null;
  model?: string | null;
  totalCost: string;
  totalTokens: number;
  runCount: number;
}

export interface CostSeries {
  /** Every UTC day of the range, oldest first, including days without usage. */
  days: string[];
  /** Models by total cost, most expensive first (the chart's stacking and legend order). */
  models: string[];
  /** costs[day][model] in USD (floats: for drawing only; totals use exact sums). */
  costs: number[][];
  /** The largest day's total, the chart's vertical scale. */
  maxDayCost: number;
  /** Exact totals as decimal strings. */
  totalCost: string;
  costByModel: Record<string, string>;
  totalTokens: number;
  callCount: number;
}

export const UNKNOWN_MODEL = "(no model)";

/** Arranges rows of one range into days × models, filling days without usage with zeros. */
export function buildCostSeries(rows: readonly UsageRow[], from: Date, to: Date): CostSeries {
  const days = utcDaysBetween(from, to);
  const exactByModel = new Map<string, string[]>();
  for (const row of rows) {
    const model = row.model ?? UNKNOWN_MODEL;
    exactByModel.set(model, [...(exactByModel.get(model) ?? []), row.totalCost]);
  }
  const costByModel = Object.fromEntries([...exactByModel].map(([model, amounts]) => [model, sumDecimals(amounts)]));
  const models = Object.keys(costByModel).sort((a, b) => Number(costByModel[b]) - Number(costByModel[a]) || a.localeCompare(b));

  const dayIndex = new Map(days.map((day, index) => [day, index]));
  const costs = days.map(() => models.map(() => 0));
  for (const row of rows) {
    const index = row.day ? dayIndex.get(row.day) : undefined;
    if (index === undefined) continue;
    costs[index][models.indexOf(row.model ?? UNKNOWN_MODEL)] += Number(row.totalCost);
  }
  return {
    days,
    models,
    costs,
    maxDayCost: Math.max(0, ...costs.map((day) => day.reduce((sum, cost) => sum + cost, 0))),
    totalCost: sumDecimals(rows.map((row) => row.totalCost)),
    costByModel,
    totalTokens: rows.reduce((sum, row) => sum + row.totalTokens, 0),
    callCount: rows.reduce((sum, row) => sum + row.runCount, 0),
  };
}

/** YYYY-MM-DD of every UTC day that [from, to) touches. */
export function utcDaysBetween(from: Date, to: Date): string[] {
  const days: string[] = [];
  const cursor = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  while (cursor < to && days.length < 400) {
    days.push(cursor.toISOString().slice(0, 10));
    cursor.setUTCDate(cursor.getUTCDate() + 1);
  }
  return days;
}

/** A "nice" axis maximum (1, 2 or 5 × 10^n) at or above `value`, and its tick values. */
export function niceScale(value: number, tickCount = 4): { max: number; ticks: number[] } {
  if (value <= 0) return { max: 1, ticks: [0, 1] };
  const rough = value / tickCount;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough) ?? 10 * power;
  const max = step * Math.ceil(value / step);
  const ticks: number[] = [];
  for (let tick = 0; tick <= max + step / 2; tick += step) ticks.push(Number(tick.toPrecision(12)));
  return { max, ticks };
}
