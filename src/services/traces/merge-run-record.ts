import type { JsonObject } from "../../domain/json.js";
import { isJsonObject } from "../../domain/json.js";
import { rootDottedOrder } from "../../tracing/ingest/dotted-order.js";
import type { CanonicalRunTime } from "../../tracing/ingest/parse-run-time.js";
import type { NormalizedOperation, RecordFields } from "./normalize-run-operation.js";
import type { TraceRunRecord } from "./trace-run.js";

/**
 * Merging posts and patches of one run, in whatever order they arrive (pure).
 *
 * Each field has an owner: the patch owns what completes a run (end_time, outputs, error, events,
 * status), the post owns everything else. A field the owner has sent is never overwritten by the
 * other kind, so a post that arrives after its patch (the SDK sends them in separate batches, and
 * batches race) cannot wipe the outputs. A repeat of the owner (a retried post) replaces the
 * value; a field only the other kind sent is kept until the owner sends one. `extra` is merged
 * key by key (metadata one level deeper), the patch's keys on top. Absent and null mean "not
 * given": LangSmith clients drop None fields, and treating null alike keeps retries idempotent.
 */
const PATCH_OWNED: ReadonlySet<keyof RecordFields> = new Set(["endTime", "outputs", "error", "events", "status"]);

const MERGED_FIELDS: ReadonlyArray<keyof RecordFields> = [
  "traceId",
  "parentRunId",
  "dottedOrder",
  "name",
  "runType",
  "status",
  "startTime",
  "endTime",
  "inputs",
  "outputs",
  "events",
  "serialized",
  "error",
  "tags",
  "sessionName",
  "sessionId",
  "referenceExampleId",
];

export function mergeRunOperation(
  existing: TraceRunRecord | null,
  operation: NormalizedOperation,
  receivedAt: CanonicalRunTime,
): TraceRunRecord {
  const base = existing ?? emptyRecord(operation.id, operation.fields, receivedAt);
  const merged: TraceRunRecord = { ...base };
  const { kind, fields } = operation;
  for (const field of MERGED_FIELDS) {
    const incoming = fields[field];
    if (incoming === undefined) continue;
    const current = base[field];
    const owner = PATCH_OWNED.has(field) ? "patch" : "post";
    const ownerHasSent = owner === "patch" ? base.hasPatch : base.hasPost;
    if (current == null || kind === owner || !ownerHasSent || isProvisionalStart(field, base)) {
      (merged as unknown as Record<string, unknown>)[field] = incoming;
    }
  }
  merged.extra = mergeExtra(base.extra, fields.extra ?? null, kind === "patch" || !base.hasPatch);
  if (fields.attachments) merged.attachments = { ...(base.attachments ?? {}), ...fields.attachments };
  merged.hasPost = base.hasPost || kind === "post";
  merged.hasPatch = base.hasPatch || kind === "patch";
  if (merged.hasPost && merged.dottedOrder === null && merged.parentRunId === null) {
    merged.dottedOrder = rootDottedOrder(merged.startTime, merged.id);
  }
  return merged;
}

// Before any post, start_time holds a placeholder that any real start time replaces.
function isProvisionalStart(field: keyof RecordFields, base: TraceRunRecord): boolean {
  return field === "startTime" && !base.hasPost;
}

function emptyRecord(id: string, fields: RecordFields, receivedAt: CanonicalRunTime): TraceRunRecord {
  return {
    id,
    traceId: null,
    parentRunId: null,
    dottedOrder: null,
    name: null,
    runType: null,
    status: null,
    // Placeholder until a start time arrives: the end time of an early patch, else the receive time.
    startTime: fields.startTime ?? fields.endTime ?? receivedAt,
    endTime: null,
    inputs: null,
    outputs: null,
    extra: null,
    events: null,
    serialized: null,
    error: null,
    tags: [],
    sessionName: null,
    sessionId: null,
    referenceExampleId: null,
    attachments: null,
    hasPost: false,
    hasPatch: false,
  };
}

function mergeExtra(base: JsonObject | null, incoming: JsonObject | null, incomingWins: boolean): JsonObject | null {
  if (!incoming) return base;
  if (!base) return incoming;
  const [bottom, top] = incomingWins ? [base, incoming] : [incoming, base];
  const merged: JsonObject = { ...bottom, ...top };
  if (isJsonObject(bottom.metadata) && isJsonObject(top.metadata)) {
    merged.metadata = { ...bottom.metadata, ...top.metadata };
  }
  return merged;
}
