import type { JsonValue } from "./json.js";

/**
 * Feedback on a trace run, as LangSmith's feedback API has it: a key (what is judged, such as
 * `correctness`) with a score, a value, a comment and/or a correction, and where it came from.
 * Times are ISO strings; the score is a number (LangSmith's booleans are kept as 1 and 0).
 */
export interface TraceFeedback {
  id: string;
  runId: string;
  traceId: string | null;
  key: string;
  score: number | null;
  value: JsonValue | null;
  comment: string | null;
  correction: JsonValue | null;
  source: FeedbackSource;
  createdAt: string;
  modifiedAt: string;
}

/** LangSmith's feedback_source: `api`, `model`, `app` or a client's own word, with free metadata. */
export interface FeedbackSource {
  type: string;
  metadata: { [key: string]: JsonValue };
}

export interface CreateFeedbackInput {
  /** Chosen by the client (LangSmith's SDK sends a UUID v7); generated when absent. */
  id?: string;
  runId: string;
  /** When given, must be the run's trace. */
  traceId?: string | null;
  key: string;
  score?: number | boolean | null;
  value?: JsonValue | null;
  comment?: string | null;
  correction?: JsonValue | null;
  source?: Partial<FeedbackSource> | null;
}

/** Only the given fields change; null clears one. */
export interface UpdateFeedbackInput {
  score?: number | boolean | null;
  value?: JsonValue | null;
  comment?: string | null;
  correction?: JsonValue | null;
}

export interface FeedbackFilter {
  runIds?: string[];
  keys?: string[];
  sourceTypes?: string[];
}

export const FEEDBACK_KEY_MAX_LENGTH = 200;

/**
 * A score as stored: booleans as 1/0, numbers at most four decimals (LangSmith's precision,
 * which its SDK rounds to before sending). Returns an error message for anything else.
 */
export function feedbackScore(score: unknown): { ok: true; score: number | null | undefined } | { ok: false; message: string } {
  if (score === undefined || score === null) return { ok: true, score };
  if (typeof score === "boolean") return { ok: true, score: score ? 1 : 0 };
  if (typeof score !== "number" || !Number.isFinite(score)) return { ok: false, message: "score must be a finite number or a boolean" };
  if (Math.abs(score) >= 1e12) return { ok: false, message: "score must be below 1e12 in magnitude" };
  return { ok: true, score: Number(score.toFixed(4)) };
}
