import type { TraceListQueryVariables } from "../../generated/graphql.js";
import { parseMetadataFilter } from "../../lib/metadata-filter.js";

export type RangePreset = "1h" | "24h" | "7d" | "30d" | "90d" | "custom";

export interface TraceFilterValues {
  range: RangePreset;
  /** datetime-local values, used when range is "custom". */
  customFrom: string;
  customTo: string;
  runType: string;
  model: string;
  status: "any" | "error" | "ok";
  rootsOnly: boolean;
  /** Sent to the server (traces' nameContains): every recorded run is searched, not only loaded rows. */
  nameContains: string;
  /** Tags as typed, separated by commas or spaces; `tagMode` says whether a run needs all or any. */
  tags: string;
  tagMode: "all" | "any";
  /** `key=value` pairs or a JSON object, as on the threads page (lib/metadata-filter.ts). */
  metadata: string;
  /** A feedback key, and optional score bounds as typed. */
  feedbackKey: string;
  scoreMin: string;
  scoreMax: string;
}

export const DEFAULT_FILTERS: TraceFilterValues = {
  range: "7d",
  customFrom: "",
  customTo: "",
  runType: "",
  model: "",
  status: "any",
  rootsOnly: true,
  nameContains: "",
  tags: "",
  tagMode: "all",
  metadata: "",
  feedbackKey: "",
  scoreMin: "",
  scoreMax: "",
};

const RANGE_MS: Record<Exclude<RangePreset, "custom">, number> = {
  "1h": 3_600_000,
  "24h": 86_400_000,
  "7d": 7 * 86_400_000,
  "30d": 30 * 86_400_000,
  "90d": 90 * 86_400_000,
};

/** The concrete [from, to) of the filters at `now`. */
export function timeWindow(filters: TraceFilterValues, now: Date): { from: Date; to: Date } {
  if (filters.range === "custom") {
    const from = filters.customFrom ? new Date(filters.customFrom) : new Date(now.getTime() - RANGE_MS["7d"]);
    const to = filters.customTo ? new Date(filters.customTo) : new Date(now.getTime() + 60_000);
    return { from, to };
  }
  // A minute of slack so a run that starts while the page is open still falls inside.
  return { from: new Date(now.getTime() - RANGE_MS[filters.range]), to: new Date(now.getTime() + 60_000) };
}

/**
 * Model calls are never roots (a graph run is), so filtering by model or by a run type other
 * than chain searches every run, not only whole traces.
 */
export function searchesRootsOnly(filters: TraceFilterValues): boolean {
  return filters.rootsOnly && !filters.model && (filters.runType === "" || filters.runType === "chain");
}

/** What in the filters cannot be sent as typed; the list then ignores that filter. */
export function filterProblems(filters: TraceFilterValues): { metadata: string | null; score: string | null } {
  const metadata = parseMetadataFilter(filters.metadata);
  const isScore = (text: string) => text.trim() === "" || Number.isFinite(Number(text));
  return {
    metadata: metadata.ok ? null : metadata.message,
    score: isScore(filters.scoreMin) && isScore(filters.scoreMax) ? null : "A score bound is a number, e.g. 0.5",
  };
}

function tagList(text: string): string[] | null {
  const tags = text.split(/[\s,]+/).filter(Boolean);
  return tags.length > 0 ? tags : null;
}

function scoreBound(text: string): number | null {
  return text.trim() === "" || !Number.isFinite(Number(text)) ? null : Number(text);
}

export function listVariables(filters: TraceFilterValues, period: { from: Date; to: Date }): TraceListQueryVariables {
  const metadata = parseMetadataFilter(filters.metadata);
  const tags = tagList(filters.tags);
  const feedbackKey = filters.feedbackKey.trim();
  return {
    first: 50,
    rootsOnly: searchesRootsOnly(filters),
    runType: filters.runType || null,
    nameContains: filters.nameContains.trim() || null,
    model: filters.model || null,
    hasError: filters.status === "any" ? null : filters.status === "error",
    startTimeFrom: period.from.toISOString(),
    startTimeTo: period.to.toISOString(),
    tags: filters.tagMode === "all" ? tags : null,
    tagsAny: filters.tagMode === "any" ? tags : null,
    metadataAnyOf: metadata.ok ? metadata.alternatives : null,
    feedback: feedbackKey ? { key: feedbackKey, scoreMin: scoreBound(filters.scoreMin), scoreMax: scoreBound(filters.scoreMax) } : null,
  };
}

const RUN_TYPES = ["chain", "llm", "tool", "retriever", "embedding", "prompt", "parser"];

interface TraceFiltersProps {
  value: TraceFilterValues;
  models: string[];
  onChange: (next: TraceFilterValues) => void;
  onRefresh: () => void;
}

export function TraceFilters({ value, models, onChange, onRefresh }: TraceFiltersProps) {
  const set = <K extends keyof TraceFilterValues>(key: K, next: TraceFilterValues[K]) => onChange({ ...value, [key]: next });
  const problems = filterProblems(value);
  return (
    <div className="trace-filters" role="search" aria-label="Trace filters">
      <div className="toolbar toolbar-wrap">
        <input
          type="search"
          className="search-input"
          placeholder="Name contains"
          aria-label="Search traces by name"
          data-search
          value={value.nameContains}
          onChange={(event) => set("nameContains", event.target.value)}
        />
        <label className="inline-field">
          Time
          <select value={value.range} onChange={(event) => set("range", event.target.value as RangePreset)}>
            <option value="1h">Last hour</option>
            <option value="24h">Last 24 hours</option>
            <option value="7d">Last 7 days</option>
            <option value="30d">Last 30 days</option>
            <option value="90d">Last 90 days</option>
            <option value="custom">Custom…</option>
          </select>
        </label>
        {value.range === "custom" && (
          <>
            <input type="datetime-local" aria-label="From" value={value.customFrom} onChange={(event) => set("customFrom", event.target.value)} />
            <input type="datetime-local" aria-label="To" value={value.customTo} onChange={(event) => set("customTo", event.target.value)} />
          </>
        )}
        <label className="inline-field">
          Type
          <select value={value.runType} onChange={(event) => set("runType", event.target.value)}>
            <option value="">Any</option>
            {RUN_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          Model
          <select value={value.model} onChange={(event) => set("model", event.target.value)}>
            <option value="">Any</option>
            {models.map((model) => (
              <option key={model} value={model}>
                {model}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          Status
          <select value={value.status} onChange={(event) => set("status", event.target.value as TraceFilterValues["status"])}>
            <option value="any">Any</option>
            <option value="error">Errors</option>
            <option value="ok">No error</option>
          </select>
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={searchesRootsOnly(value)}
            disabled={value.rootsOnly && !searchesRootsOnly(value)}
            onChange={(event) => set("rootsOnly", event.target.checked)}
          />
          Whole traces only
        </label>
        <button type="button" className="button button-small" onClick={onRefresh}>
          Refresh
        </button>
      </div>
      <div className="toolbar toolbar-wrap">
        <span className="filter-group">
          <label className="inline-field">
            Tags
            <input type="search" placeholder="prod, chat" value={value.tags} onChange={(event) => set("tags", event.target.value)} />
          </label>
          <select aria-label="Tags to match" value={value.tagMode} onChange={(event) => set("tagMode", event.target.value as TraceFilterValues["tagMode"])}>
            <option value="all">all of them</option>
            <option value="any">any of them</option>
          </select>
        </span>
        <label className="inline-field">
          Metadata
          <input
            type="search"
            placeholder="user_id=42"
            aria-invalid={problems.metadata !== null}
            value={value.metadata}
            onChange={(event) => set("metadata", event.target.value)}
          />
        </label>
        <span className="filter-group">
          <label className="inline-field">
            Feedback
            <input type="search" placeholder="key" value={value.feedbackKey} onChange={(event) => set("feedbackKey", event.target.value)} />
          </label>
          <ScoreInput label="Lowest feedback score" placeholder="min" value={value.scoreMin} disabled={!value.feedbackKey.trim()} onChange={(next) => set("scoreMin", next)} />
          <ScoreInput label="Highest feedback score" placeholder="max" value={value.scoreMax} disabled={!value.feedbackKey.trim()} onChange={(next) => set("scoreMax", next)} />
        </span>
      </div>
      {problems.metadata && <p className="field-error">{problems.metadata}</p>}
      {problems.score && <p className="field-error">{problems.score}</p>}
    </div>
  );
}

/** A feedback score bound: a number, or empty for none; anything else is marked invalid. */
function ScoreInput(props: { label: string; placeholder: string; value: string; disabled: boolean; onChange: (next: string) => void }) {
  return (
    <input
      className="score-input"
      inputMode="decimal"
      placeholder={props.placeholder}
      aria-label={props.label}
      aria-invalid={props.value.trim() !== "" && !Number.isFinite(Number(props.value))}
      disabled={props.disabled}
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
    />
  );
}
