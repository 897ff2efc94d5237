import { InvalidInputError } from "../../domain/errors.js";
import { tracingProjectId } from "../../domain/ids.js";
import { MAX_INDEXED_TEXT_BYTES, validateTextBytes } from "../../domain/input-bounds.js";
import { isJsonObject } from "../../domain/json.js";
import { parseDottedOrder } from "../../tracing/ingest/dotted-order.js";
import { parseRunTime, type CanonicalRunTime } from "../../tracing/ingest/parse-run-time.js";
import type { TraceRunOperation, TraceRunRecord } from "../../domain/trace-run.js";

export type OperationKind = "post" | "patch";

/** The fields an operation sets (undefined = not given), validated and in canonical form. */
export type RecordFields = Partial<Omit<TraceRunRecord, "id" | "hasPost" | "hasPatch">>;

export interface NormalizedOperation {
  kind: OperationKind;
  id: string;
  fields: RecordFields;
}

// LangSmith ids are UUIDs of any version (the SDKs send v4 and v7): only the shape is checked.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Validates one run operation and brings it to canonical form: lower-case ids, canonical times,
 * and the gaps a dotted_order fills (trace id, parent id and start time are all encoded in it).
 * Throws InvalidInputError naming the run and field; nothing of the batch is stored then.
 */
export function normalizeRunOperation(operation: TraceRunOperation, kind: OperationKind): NormalizedOperation {
  const id = requireUuid(operation.id, "id", operation.id, kind);
  const where = `${kind} of run ${id}`;
  const fields: RecordFields = {
    traceId: optionalUuid(operation.traceId, "trace_id", where),
    parentRunId: optionalUuid(operation.parentRunId, "parent_run_id", where),
    dottedOrder: indexedText(optionalString(operation.dottedOrder, "dotted_order", where), "dotted_order", where),
    name: optionalString(operation.name, "name", where),
    runType: optionalString(operation.runType, "run_type", where),
    status: optionalString(operation.status, "status", where),
    startTime: optionalTime(operation.startTime, "start_time", where),
    endTime: optionalTime(operation.endTime, "end_time", where),
    inputs: operation.inputs ?? undefined,
    outputs: operation.outputs ?? undefined,
    serialized: operation.serialized ?? undefined,
    // A non-string error (some tracers send an object) is kept as its JSON text.
    error: operation.error == null ? undefined : typeof operation.error === "string" ? operation.error : JSON.stringify(operation.error),
    sessionName: optionalString(operation.sessionName, "session_name", where),
    sessionId: optionalUuid(operation.sessionId, "session_id", where),
    referenceExampleId: optionalUuid(operation.referenceExampleId, "reference_example_id", where),
    attachments: operation.attachments ?? undefined,
    // Declared up front so every operation has the same shape (set below when valid).
    extra: undefined,
    events: undefined,
    tags: undefined,
  };
  if (operation.extra != null) {
    if (!isJsonObject(operation.extra)) throw new InvalidInputError(`${where}: extra must be an object`);
    fields.extra = operation.extra;
  }
  if (operation.events != null) {
    if (!Array.isArray(operation.events)) throw new InvalidInputError(`${where}: events must be an array`);
    fields.events = operation.events;
  }
  if (operation.tags != null) {
    if (!Array.isArray(operation.tags) || operation.tags.some((tag) => typeof tag !== "string")) {
      throw new InvalidInputError(`${where}: tags must be an array of strings`);
    }
    fields.tags = operation.tags;
  }
  fillFromDottedOrder(fields, id, kind);
  // A run named into a project only by name gets that project's id, which GET /sessions answers.
  if (fields.sessionId === undefined && typeof fields.sessionName === "string") fields.sessionId = tracingProjectId(fields.sessionName);
  return { kind, id, fields };
}

/** A post without trace id, parent or start time takes them from its dotted_order; a root gets one. */
function fillFromDottedOrder(fields: RecordFields, id: string, kind: OperationKind): void {
  const isComplete = fields.traceId !== undefined && fields.parentRunId !== undefined && fields.startTime !== undefined;
  const segments = fields.dottedOrder && !isComplete ? parseDottedOrder(fields.dottedOrder) : undefined;
  if (segments && segments[segments.length - 1].runId === id) {
    fields.traceId ??= segments[0].runId;
    if (segments.length > 1) fields.parentRunId ??= segments[segments.length - 2].runId;
    fields.startTime ??= segments[segments.length - 1].startTime;
  }
  if (kind === "post" && fields.parentRunId === undefined && fields.traceId === undefined) fields.traceId = id;
}

function requireUuid(value: unknown, field: string, runId: unknown, kind: OperationKind): string {
  if (typeof value !== "string" || !UUID.test(value)) {
    throw new InvalidInputError(`${kind} of run '${String(runId)}': ${field} must be a UUID`);
  }
  return value.toLowerCase();
}

function optionalUuid(value: unknown, field: string, where: string): string | undefined {
  if (value == null) return undefined;
  if (typeof value !== "string" || !UUID.test(value)) {
    throw new InvalidInputError(`${where}: ${field} must be a UUID, got ${JSON.stringify(value)}`);
  }
  return value.toLowerCase();
}

function optionalString(value: unknown, field: string, where: string): string | undefined {
  if (value == null) return undefined;
  if (typeof value !== "string") throw new InvalidInputError(`${where}: ${field} must be a string`);
  return value;
}

function optionalTime(value: unknown, field: string, where: string): CanonicalRunTime | undefined {
  if (value == null) return undefined;
  const time = parseRunTime(value);
  if (time === undefined) {
    throw new InvalidInputError(
      `${where}: ${field} ${JSON.stringify(value)} is not an ISO 8601 time or epoch milliseconds`,
    );
  }
  return time;
}

/** Text kept in a B-tree index, within its size bound (domain/input-bounds.ts). */
function indexedText(value: string | undefined, field: string, where: string): string | undefined {
  return value === undefined ? undefined : validateTextBytes(value, `${where}: ${field}`, MAX_INDEXED_TEXT_BYTES);
}
