import { parseJsonText } from "../../domain/json-depth.js";
import type { MultipartPart } from "./multipart-body.js";

/**
 * Reassembles LangSmith multipart ingestion parts into wire run objects. The SDK splits each run
 * operation into a main part `post.<id>` / `patch.<id>` (the run without its big fields) plus one
 * part per big field `post.<id>.inputs|outputs|events|extra|error|serialized`, and sends files as
 * `attachment.<id>.<name>`, and feedback created with a trace id as `feedback.<id>`. Each part is
 * JSON (Content-Type `application/json; length=N`).
 */
export interface MultipartRuns {
  post: Record<string, unknown>[];
  patch: Record<string, unknown>[];
  /** Feedback objects (LangSmith's FeedbackCreateSchema), by part, in body order. */
  feedback: Record<string, unknown>[];
}

export class MultipartRunsError extends Error {}

const RUN_FIELDS = new Set(["inputs", "outputs", "events", "extra", "error", "serialized"]);

/**
 * What LangSmith's client sends, instead of JSON, for a payload it could not serialize (langsmith
 * 0.12 fast-safe-stringify: a throwing toJSON, or a cycle next to a BigInt). Such a part is taken
 * as that text, so the other runs of the batch, and the run's other fields, are stored.
 */
const LANGSMITH_UNSERIALIZABLE_TEXTS = new Set(["[Unserializable]", "[unable to serialize, circular reference is too complex to analyze]"]);
// These fields must be an object / an array: an unserializable one is left out rather than refused.
const STRUCTURED_FIELDS = new Set(["extra", "events"]);
type Method = "post" | "patch";

export function collectMultipartRuns(parts: readonly MultipartPart[]): MultipartRuns {
  const runs: Record<Method, Map<string, Record<string, unknown>>> = { post: new Map(), patch: new Map() };
  const feedback: Record<string, unknown>[] = [];
  const attachments = new Map<string, Record<string, { content_type: string | null; size_bytes: number }>>();
  const runOf = (method: Method, id: string) => {
    let run = runs[method].get(id);
    if (!run) runs[method].set(id, (run = { id }));
    return run;
  };

  for (const part of parts) {
    const { kind, id, field, hasMore } = splitPartName(part.name);
    if (!id || hasMore || (kind !== "post" && kind !== "patch" && kind !== "attachment" && kind !== "feedback")) {
      throw new MultipartRunsError(
        `part '${part.name}': expected post.<run_id>[.<field>], patch.<run_id>[.<field>], attachment.<run_id>.<name> or feedback.<id>`,
      );
    }
    if (kind === "feedback") {
      feedback.push(feedbackPart(part, id, field));
      continue;
    }
    if (kind === "attachment") {
      if (!field) throw new MultipartRunsError(`part '${part.name}': an attachment part needs a name`);
      // Attachments are recorded, not kept: the trace store has no blob storage.
      const forRun = attachments.get(id) ?? {};
      forRun[field] = { content_type: part.contentType, size_bytes: part.data.length };
      attachments.set(id, forRun);
      continue;
    }
    const value = parseJsonPart(part);
    const isUnserializable = value instanceof UnserializablePayload;
    if (field === undefined) {
      // The run itself could not be serialized: it is known by its id only.
      if (isUnserializable) {
        runOf(kind, id);
        continue;
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        throw new MultipartRunsError(`part '${part.name}': the run must be a JSON object`);
      }
      const run = value as Record<string, unknown>;
      if (run.id !== undefined && String(run.id).toLowerCase() !== id.toLowerCase()) {
        throw new MultipartRunsError(`part '${part.name}': its id '${String(run.id)}' differs from the part name`);
      }
      Object.assign(runOf(kind, id), run, { id });
    } else {
      if (!RUN_FIELDS.has(field)) {
        throw new MultipartRunsError(`part '${part.name}': unknown run field '${field}'`);
      }
      if (isUnserializable) {
        if (!STRUCTURED_FIELDS.has(field)) runOf(kind, id)[field] = value.text;
        continue;
      }
      runOf(kind, id)[field] = value;
    }
  }

  for (const [id, files] of attachments) {
    const run = runs.post.get(id) ?? runOf("patch", id);
    run.attachments = { ...(run.attachments as object | undefined), ...files };
  }
  return { post: [...runs.post.values()], patch: [...runs.patch.values()], feedback };
}

/** A `feedback.<id>` part: one JSON object, whose id (when given) is the part's. */
function feedbackPart(part: MultipartPart, id: string, field: string | undefined): Record<string, unknown> {
  if (field !== undefined) throw new MultipartRunsError(`part '${part.name}': a feedback part has no fields (expected feedback.<id>)`);
  const value = parseJsonPart(part);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new MultipartRunsError(`part '${part.name}': the feedback must be a JSON object`);
  }
  const feedback = value as Record<string, unknown>;
  if (feedback.id !== undefined && String(feedback.id).toLowerCase() !== id.toLowerCase()) {
    throw new MultipartRunsError(`part '${part.name}': its id '${String(feedback.id)}' differs from the part name`);
  }
  return { ...feedback, id };
}

/** `<kind>.<id>[.<field>]`, without split(): this runs for every part of every batch. */
function splitPartName(name: string) {
  const first = name.indexOf(".");
  if (first < 0) return { kind: name, id: "", field: undefined, hasMore: false };
  const second = name.indexOf(".", first + 1);
  if (second < 0) return { kind: name.slice(0, first), id: name.slice(first + 1), field: undefined, hasMore: false };
  const third = name.indexOf(".", second + 1);
  return {
    kind: name.slice(0, first),
    id: name.slice(first + 1, second),
    field: name.slice(second + 1, third < 0 ? undefined : third),
    hasMore: third >= 0,
  };
}

function parseJsonPart(part: MultipartPart): unknown {
  if (part.contentType !== null && part.contentType !== "application/json" && !part.contentType.endsWith("+json")) {
    throw new MultipartRunsError(`part '${part.name}': Content-Type must be application/json, got '${part.contentType}'`);
  }
  const text = part.data.toString("utf8");
  if (LANGSMITH_UNSERIALIZABLE_TEXTS.has(text)) return new UnserializablePayload(text);
  const parsed = parseJsonText(text, `part '${part.name}'`);
  if (!parsed.ok) throw new MultipartRunsError(parsed.message);
  return parsed.value;
}

/** A part holding one of LangSmith's unserializable-payload texts. */
class UnserializablePayload {
  constructor(readonly text: string) {}
}
